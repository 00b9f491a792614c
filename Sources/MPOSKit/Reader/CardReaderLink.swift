import MPOSCore
import ReaderLink
import Synchronization

/// The terminal's card reader, reached as ``PaymentTerminal/reader``: connecting and pairing,
/// listening to it, reaching it again after a drop, its description and battery, its log
/// (Handpoint's logSetLevel / logGetInfo / logReset), its barcode scanner (Handpoint's
/// enableScanner / disableScanner), and finding readers to connect.
///
/// ```swift
/// try await terminal.reader.connect(secret: secret) { try await TCPTransport.connect(host: host, port: port) }
/// let battery = try await terminal.reader.battery()
/// try await terminal.reader.setLogLevel(.debug)
/// ```
///
/// The link's rules are the pure `ReaderLinkMachine`; this actor carries out what it decides
/// (opens, pairs, listens, closes, waits between attempts) and owns everything about the
/// reader: the link, its description, the battery watch and the app's catalogue. What the
/// rest of the terminal must hear (a reader paired, the app let it go) goes to its
/// `ReaderLinkObserver`, the facade; a payment in progress gets the reader's messages
/// through `routeMessages(to:)`.
public actor CardReaderLink {
    /// The low-battery threshold a terminal starts with: 10 %.
    public static let defaultBatteryLowThreshold = 10
    /// How long discovery scans unless told otherwise, and when told zero: 5 s (the ECP seed's).
    public static let defaultScanTime: Duration = .seconds(5)
    /// How long connecting to a discovered reader may take unless told otherwise, and when
    /// told zero: 15 s (the ECP seed's).
    public static let defaultConnectTimeout: Duration = .seconds(15)
    /// The link's keep-alive interval (docs/reader-protocol.md §6): after this long without a
    /// frame from the reader and nothing pending, the SDK pings; an unanswered ping closes the
    /// link. Without it a reader that goes silent mid-transaction would leave the sale waiting.
    static let keepAlive: Duration = .seconds(15)
    /// How long an update's restart may take before the reader counts as lost.
    static let restartLimit: Duration = .seconds(120)

    typealias Machine = ReaderLinkMachine<ReaderConnection>

    /// What a payment in progress hears from the reader.
    enum News: Sendable {
        case message(ReaderMessage)
        case lost
    }

    let clock: any Clock<Duration>
    /// The terminal's events, which the reader's news joins.
    let events: TerminalEvents
    private let gate: OperationGate
    /// The facade, told what the rest of the terminal must hear (held weakly: it holds this).
    private let facade: TerminalSlot

    private var machine = Machine()
    /// Reads the link's messages while `connected`.
    private var listener: Task<Void, Never>?
    /// Waits for, and makes, the attempts while `reconnecting`.
    private var reconnector: Task<Void, Never>?
    /// Where the reader's messages go while a payment runs, and which payment set it.
    private var paymentRoute: (token: UniqueToken, deliver: @Sendable (News) -> Void)?
    /// The connected reader's description, as it last gave it.
    public private(set) var info: DeviceInfo?
    private var battery = BatteryWatch()
    /// The app's terminal catalogue, if set (``setCatalogue(_:)``).
    public private(set) var catalogue: TerminalCatalogue?

    init(clock: any Clock<Duration>, hub: TerminalEvents, gate: OperationGate, facade: TerminalSlot) {
        self.facade = facade
        self.clock = clock
        self.events = hub
        self.gate = gate
    }

    // MARK: - State

    /// Whether a reader is connected, being connected (a connect, or a reconnection after a
    /// drop, between its attempts too), or not: the ECP seed's connection status. Each change
    /// also comes as a ``TerminalEvent/readerConnecting(attempt:)`` or
    /// ``TerminalEvent/readerConnection(connected:info:)`` event.
    public var connectionState: ReaderConnectionState { machine.connectionState }

    /// The paired link, if any.
    var link: ReaderConnection? { machine.link }

    /// Whether the reader can be reached again after it restarts (it was connected through a
    /// transport factory).
    var canBeReachedAgain: Bool { machine.route != nil }

    /// The low-battery threshold in force.
    public var batteryLowThreshold: Int { battery.threshold }

    /// The cards the connected reader's model may not take, from the catalogue.
    var blacklist: [TerminalCatalogue.BlacklistedCard] {
        guard let model = info?.model else { return [] }
        return catalogue?.terminal(model: model)?.blacklist ?? []
    }

    // MARK: - Connecting

    /// Pairs with a reader over `transport` and keeps the link alive with pings. A transport
    /// opened once cannot be opened again: use ``connect(secret:reconnect:open:)`` for a reader
    /// the terminal should reach again after a drop or an update's restart.
    ///
    /// - Throws: ``MPOSError/terminalBusy`` during an operation, the code
    ///   `MPOSError.Code.readerInUse` when another terminal holds the reader,
    ///   `MPOSError.Code.readerSharedSecretMismatch` when the reader holds another secret, and
    ///   ``MPOSError/readerLinkFailed`` when the link drops or times out during pairing;
    ///   ``MPOSError/readerNotSupported`` when the ``catalogue`` does not list its model.
    public func connect(transport: any ReaderTransport, secret: SharedSecret) async throws(MPOSError) {
        try await appConnect(route: nil) { () async throws(MPOSError) in
            try await self.pair(transport: transport, secret: secret, pairingTimeout: nil)
        }
    }

    /// Connects to a reader through `open` (for example
    /// `{ try await TCPTransport.connect(host: host, port: port) }`) and pairs with `secret`.
    /// When the link drops, the terminal opens a new one through `open` and pairs again,
    /// waiting as `reconnect` says (``ReconnectPolicy/standard`` by default; `nil` turns it
    /// off) and never while an operation runs. ``PaymentTerminal/disconnect()`` or another
    /// connect stops it.
    ///
    /// - Throws: ``MPOSError/terminalBusy`` during an operation; ``MPOSError/readerLinkFailed``
    ///   when the link cannot be opened or paired; the code `MPOSError.Code.readerInUse` when
    ///   another terminal holds the reader (reconnection attempts that meet it keep trying: the
    ///   holder may be this terminal's dead link, which the reader drops once it has been
    ///   silent for `ReaderLinkProtocol.idleLinkLimit`).
    public func connect(
        secret: SharedSecret, reconnect: ReconnectPolicy? = .standard, open: @escaping ReaderTransportFactory
    ) async throws(MPOSError) {
        try await connect(secret: secret, reconnect: reconnect, timeout: nil, open: open)
    }

    /// Connects to a reader that ``discover(scanners:scanTime:)`` found and pairs with
    /// `secret`, within `timeout` on the terminal's clock (``defaultConnectTimeout``, 15 s, by
    /// default and when zero or less is given, as the ECP seed's `connectTimeout`); reconnects
    /// after a drop as ``connect(secret:reconnect:open:)`` does.
    ///
    /// - Throws: ``MPOSError/readerConnectTimeout`` when the reader is not reached and paired
    ///   in time; ``MPOSError/readerLinkFailed`` when it cannot be reached or refuses to pair;
    ///   the code `MPOSError.Code.readerInUse` when another terminal holds it;
    ///   ``MPOSError/terminalBusy`` during an operation; ``MPOSError/readerNotSupported`` when
    ///   the ``catalogue`` does not list its model.
    public func connect(
        _ reader: DiscoveredReader, secret: SharedSecret, timeout: Duration = defaultConnectTimeout,
        reconnect: ReconnectPolicy? = .standard
    ) async throws(MPOSError) {
        let timeout = timeout > .zero ? timeout : Self.defaultConnectTimeout
        try await connect(secret: secret, reconnect: reconnect, timeout: timeout, open: reader.open)
    }

    /// Opens a link through `open` and pairs, within `timeout` when one is given; keeps the
    /// way back for reconnection and for an update's restart.
    private func connect(
        secret: SharedSecret, reconnect: ReconnectPolicy?, timeout: Duration?, open: @escaping ReaderTransportFactory
    ) async throws(MPOSError) {
        let route = Machine.Route(reconnect: reconnect, secret: secret, open: open)
        try await appConnect(route: route) { () async throws(MPOSError) in
            let watch = Stopwatch(self.clock)
            let transport = try await Self.open(open, within: timeout, on: self.clock)
            let left = timeout.map { $0 - watch.elapsed }
            if let left, left <= .zero {
                await transport.close()
                throw MPOSError.readerConnectTimeout
            }
            return try await self.pair(transport: transport, secret: secret, pairingTimeout: left)
        }
    }

    /// An app's connect: lets the current reader go, pairs through `body`, then lets the
    /// facade finish (updates on connect) before it returns.
    private func appConnect(
        route: Machine.Route?, _ body: () async throws(MPOSError) -> ReaderConnection
    ) async throws(MPOSError) {
        guard !gate.isBusy else { throw MPOSError.terminalBusy }
        await letGo()
        run(machine.handle(.connectStarted))
        do throws(MPOSError) {
            let link = try await body()
            run(machine.handle(.paired(link, route: route)))
            guard machine.link === link else {
                throw MPOSError.readerLinkFailed.withMessage("Another connect or a disconnect replaced this one.")
            }
            try await admit(link)
        } catch {
            run(machine.handle(.connectFailed))
            throw error
        }
        try await observerNow?.readerConnectedByApp()
    }

    /// Pairs over `transport`.
    ///
    /// - Parameter pairingTimeout: what is left of a caller's connect deadline; when it runs
    ///   out the error is ``MPOSError/readerConnectTimeout``. Nil: the link's own timeout.
    private func pair(transport: any ReaderTransport, secret: SharedSecret, pairingTimeout: Duration?)
        async throws(MPOSError) -> ReaderConnection
    {
        do {
            return try await ReaderConnection.open(
                transport: transport, secret: secret, clock: clock, keepAlive: Self.keepAlive,
                pairingTimeout: pairingTimeout)
        } catch .timeout where pairingTimeout != nil {
            throw MPOSError.readerConnectTimeout
        } catch .readerInUse(let holder) {
            throw ReaderLinkError.readerInUse(by: holder).mposError
        } catch .sharedSecretInvalid {
            // Only a proof that did not verify says the secrets differ; a dropped link does not.
            throw ReaderLinkError.sharedSecretInvalid.mposError.withMessage(
                "The reader holds a different shared secret; check the secret configured for it.")
        } catch {
            throw MPOSError.readerLinkFailed.withMessage(
                "The reader could not be paired: \(Self.pairingFailure(error)).")
        }
    }

    /// A link just taken: its description, the catalogue's judgement, the facade's say, then
    /// the announcement. A model the catalogue does not list is let go unannounced.
    private func admit(_ link: ReaderConnection) async throws(MPOSError) {
        let described: DeviceInfo?
        do { described = try await deviceInfo() } catch {
            // The app's catalogue admits models only: a reader that does not say its model is not admitted.
            if catalogue != nil {
                run(machine.handle(.connectFailed))
                throw MPOSError.readerNotSupported.withMessage(
                    "The reader did not describe itself (\(error.message)), so the app's terminal catalogue cannot admit it.")
            }
            // Without a catalogue nothing waits on the description: the payment asks again.
            described = nil
        }
        if let catalogue, let model = described?.model, catalogue.terminal(model: model) == nil {
            info = nil
            run(machine.handle(.connectFailed))
            throw MPOSError.readerNotSupported.withMessage(
                "The reader's model \"\(model)\" is not in the app's terminal catalogue.")
        }
        await observerNow?.readerPaired(described)
        events.emit(.readerConnection(connected: true, info: described))
    }

    /// Why pairing failed, in words that point at the link rather than at the secret.
    static func pairingFailure(_ error: ReaderLinkError) -> String {
        switch error {
        case .linkClosed: "the link closed during pairing (the reader or the network dropped it)"
        case .timeout: "the reader did not complete pairing in time"
        default: error.description
        }
    }

    /// A new link from `open`, or ``MPOSError/readerConnectTimeout`` when `timeout` passes
    /// first (a link that opens later is closed).
    private static func open(
        _ open: @escaping ReaderTransportFactory, within timeout: Duration?, on clock: any Clock<Duration>
    ) async throws(MPOSError) -> any ReaderTransport {
        let attempt: @Sendable () async -> Result<any ReaderTransport, any Error> = {
            do { return .success(try await open()) } catch { return .failure(error) }
        }
        let outcome: Result<any ReaderTransport, any Error>?
        if let timeout {
            outcome = await Deadline.first(attempt, orNilAfter: timeout, on: clock) { late in
                if case .success(let transport) = late { await transport.close() }
            }
        } else {
            outcome = await attempt()
        }
        switch outcome {
        case nil: throw MPOSError.readerConnectTimeout
        case .failure(let error)?:
            throw MPOSError.readerLinkFailed.withMessage("The reader could not be reached: \(error).")
        case .success(let transport)?: return transport
        }
    }

    /// Lets the reader go: closes the link, stops any reconnection, forgets the way back.
    func letGo() async {
        await runAwaitingClose(machine.handle(.letGo))
        await observerNow?.readerLetGo()
    }

    /// Closes the link but keeps the way back (an update reaches the restarted reader through it).
    func close() async { await runAwaitingClose(machine.handle(.close)) }

    /// Reaches the reader again through the way it was connected, pairing as soon as it
    /// answers, for up to two minutes (a reader restarting after an update).
    ///
    /// - Returns: nil once paired, or why it could not be reached.
    func reachAgain() async -> String? {
        guard let route = machine.route else { return "The reader was not connected through a way to reach it again." }
        let stopwatch = Stopwatch(clock)
        var pause: Duration = .milliseconds(250)
        var lastError = "no attempt"
        while stopwatch.elapsed < Self.restartLimit {
            switch await reach(through: route) {
            case .success: return nil
            case .failure(let error): lastError = error.message
            }
            guard machine.route?.id == route.id else { return "The reader was let go while it restarted." }
            do { try await clock.sleep(for: pause) } catch { return "Cancelled while the reader restarted." }
            pause = min(pause * 2, .seconds(4))
        }
        return "The reader did not come back within \(Self.restartLimit): \(lastError)."
    }

    /// One attempt through `route`: a new transport, pairing, admission.
    private func reach(through route: Machine.Route) async -> Result<Void, MPOSError> {
        let transport: any ReaderTransport
        do { transport = try await route.open() } catch {
            return .failure(MPOSError.readerLinkFailed.withMessage("The reader could not be reached: \(error)."))
        }
        let link: ReaderConnection
        do { link = try await pair(transport: transport, secret: route.secret, pairingTimeout: nil) } catch {
            await transport.close()
            return .failure(error)
        }
        run(machine.handle(.reached(link, routeID: route.id)))
        guard machine.link === link else {
            return .failure(MPOSError.readerLinkFailed.withMessage("The reader was let go while it was reached."))
        }
        do { try await admit(link) } catch { return .failure(error) }
        return .success(())
    }

    // MARK: - Carrying out the machine's actions

    /// Carries out `actions` that need no waiting (all but a link's close, which goes on
    /// in the background).
    private func run(_ actions: [Machine.Action]) {
        for action in actions { perform(action) }
    }

    /// Carries out `actions`, waiting for a link's close.
    private func runAwaitingClose(_ actions: [Machine.Action]) async {
        for action in actions {
            if case .close(let link) = action { await link.close() } else { perform(action) }
        }
    }

    private func perform(_ action: Machine.Action) {
        switch action {
        case .listen:
            guard let link = machine.link else { return }
            // Unstructured: the reader's messages are read for as long as the link lives; the
            // machine's stopListening cancels it.
            listener = Task { await self.listen(to: link) }
        case .stopListening:
            listener?.cancel()
            listener = nil
        case .close(let link):
            // Unstructured: a close from a synchronous step goes on alone; nothing waits for it.
            Task { await link.close() }
        case .tellPaymentLost:
            info = nil
            paymentRoute?.deliver(.lost)
        case .announceConnecting(let attempt):
            events.emit(.readerConnecting(attempt: attempt))
        case .announceNotConnected:
            events.emit(.readerConnection(connected: false, info: nil))
        case .scheduleAttempt(let attempt, let delay):
            let clock = self.clock
            // Unstructured: a reconnection starts from a dropped link, with no caller to await
            // it; the machine's stopReconnecting cancels it.
            reconnector = Task { [weak self] in
                do { try await clock.sleep(for: delay) } catch { return }
                await self?.attemptDue(attempt)
            }
        case .attempt(let attempt, let route):
            reconnector = Task { [weak self] in await self?.attempt(attempt, through: route) }
        case .stopReconnecting:
            reconnector?.cancel()
            reconnector = nil
        }
    }

    private func attemptDue(_ attempt: Int) {
        guard !Task.isCancelled else { return }
        run(machine.handle(.attemptDue(attempt: attempt, busy: gate.isBusy)))
    }

    private func attempt(_ attempt: Int, through route: Machine.Route) async {
        guard !Task.isCancelled else { return }
        // The attempt that pairs must not cancel itself when the machine stops reconnecting.
        if case .success = await reach(through: route) { return }
        guard !Task.isCancelled else { return }
        run(machine.handle(.attemptFailed(attempt: attempt)))
    }

    // MARK: - The reader's messages

    /// Reads the link's messages until it closes; a close this terminal did not ask for is a drop.
    private func listen(to link: ReaderConnection) async {
        for await message in link.events { readerSaid(message) }
        guard !Task.isCancelled else { return }
        run(machine.handle(.dropped(link)))
    }

    private func readerSaid(_ message: ReaderMessage) {
        if case .battery(let status) = message { noteBattery(status) }
        // A scan is never part of a payment: it reaches the app even while one runs.
        if case .scan(let scan) = message {
            events.emit(.scan(scan))
            return
        }
        if case .scannerDisabled = message {
            events.emit(.scannerDisabled)
            return
        }
        if let paymentRoute {
            paymentRoute.deliver(.message(message))
            return
        }
        Self.tellApp(message, hub: events)
    }

    /// Hands the reader's card and status messages to the app (outside a payment, or after one
    /// ended).
    static func tellApp(_ message: ReaderMessage, hub: TerminalEvents) {
        switch message {
        case .cardEvent(let event): hub.emit(.card(event))
        case .statusReport(let report):
            hub.emit(.readerStatus(status: report.status, message: report.message, cancelAllowed: report.cancelAllowed))
        default: break
        }
    }

    /// Sends the reader's messages to a payment until ``endRoute(_:)`` with the token returned.
    func routeMessages(to deliver: @escaping @Sendable (News) -> Void) -> UniqueToken {
        let token = UniqueToken()
        paymentRoute = (token, deliver)
        return token
    }

    /// The payment of `token` has its outcome: the reader's messages go to the app again (a
    /// later payment's route stays).
    func endRoute(_ token: UniqueToken) {
        if paymentRoute?.token === token { paymentRoute = nil }
    }

    /// The facade as the observer of the link, while it lives.
    private var observerNow: (any ReaderLinkObserver)? { facade.get() }

    // MARK: - What the part keeps

    /// Takes in a battery report from any source; the first low one warns.
    func noteBattery(_ status: BatteryStatus) {
        if battery.report(status) { events.emit(.batteryLow(status)) }
    }

    func setBatteryThreshold(_ percentage: Int) { battery.threshold = percentage }

    func replaceCatalogue(_ catalogue: TerminalCatalogue?) { self.catalogue = catalogue }

    // MARK: - Asking the reader

    /// Asks the reader for its description (``info()``), keeps it and takes in its battery.
    func deviceInfo() async throws(MPOSError) -> DeviceInfo {
        let described: DeviceInfo = try await ask(.getDeviceInfo, "device info") { answer in
            if case .deviceInfo(let info) = answer { info } else { nil }
        }
        info = described
        noteBattery(described.battery)
        return described
    }

    /// Sends `request` to the connected reader and picks the expected answer out of its reply.
    func ask<Answer>(
        _ request: ReaderMessage, _ what: String, _ pick: (ReaderMessage) -> Answer?
    ) async throws(MPOSError) -> Answer {
        guard let connection = machine.link else { throw MPOSError.readerNotConnected }
        let answer: ReaderMessage
        do { answer = try await connection.request(request) } catch {
            throw MPOSError.readerLinkFailed.withMessage("The reader did not answer \(what): \(error).")
        }
        guard let picked = pick(answer) else {
            throw MPOSError.readerLinkFailed.withMessage("The reader answered \(what) with another message.")
        }
        return picked
    }

    /// A reader's answer, or its error answer told apart from a failed link.
    enum Reply {
        case answer(ReaderMessage)
        case refused(ReaderStatusCode, String)
    }

    /// Sends `request`; an error answer is a ``Reply/refused(_:_:)``, not a link failure.
    func askReader(_ request: ReaderMessage, _ what: String, timeout: Duration? = nil)
        async throws(MPOSError) -> Reply
    {
        guard let connection = machine.link else { throw MPOSError.readerNotConnected }
        do {
            if let timeout { return .answer(try await connection.request(request, timeout: timeout)) }
            return .answer(try await connection.request(request))
        } catch .rejected(let status, let detail) {
            return .refused(status, detail)
        } catch {
            throw MPOSError.readerLinkFailed.withMessage("The reader did not answer \(what): \(error).")
        }
    }

    /// Sends a request whose answer is an acknowledgement; a reader's error answer is thrown
    /// as ``MPOSError/readerRefused`` with the reader's status.
    func askForAck(_ request: ReaderMessage, _ what: String) async throws(MPOSError) {
        switch try await askReader(request, what) {
        case .answer(.ack): return
        case .refused(let status, let detail): throw Self.refusal(what, status, detail)
        case .answer: throw MPOSError.readerLinkFailed.withMessage("The reader answered \(what) with another message.")
        }
    }

    static func refusal(_ what: String, _ status: ReaderStatusCode, _ detail: String) -> MPOSError {
        MPOSError.readerRefused.withMessage("The reader refused \(what): \(status.description) (\(detail)).")
    }
}

/// What the reader part tells the rest of the terminal. The facade (``PaymentTerminal``)
/// implements it and passes each word on to the part it concerns.
protocol ReaderLinkObserver: AnyObject, Sendable {
    /// A reader paired and was admitted (by the app's connect, a reconnection or an update's
    /// restart), with its description when it gave one.
    func readerPaired(_ info: DeviceInfo?) async
    /// The app's connect paired; what the terminal does before the connect returns (updates
    /// on connect). Throwing fails the connect.
    func readerConnectedByApp() async throws(MPOSError)
    /// The app let the reader go, or is replacing it.
    func readerLetGo() async
}
