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
/// rest of the terminal must hear (a reader paired, the app let it go) is published as
/// ``ReaderLinkNews`` on `news`, which the facade takes in; a payment in progress gets the
/// reader's messages through `routeMessages(to:)`.
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
    let gate: OperationGate
    /// What the rest of the terminal must hear, each piece answered by its taker.
    nonisolated let news: AsyncStream<ReaderLinkMessage>
    private let newsInput: AsyncStream<ReaderLinkMessage>.Continuation

    private var machine = Machine()
    /// Reads the link's messages while `connected`.
    private var listener: Task<Void, Never>?
    /// Waits for, and makes, the attempts while `reconnecting`.
    private var reconnector: Task<Void, Never>?
    /// Where the reader's messages go while a payment runs, and which payment set it.
    private var paymentRoute: (token: UniqueToken, deliver: @Sendable (News) -> Void)?
    /// The connected reader's description, as it last gave it.
    public internal(set) var info: DeviceInfo?
    private var battery = BatteryWatch()
    /// The app's terminal catalogue, if set (``setCatalogue(_:)``).
    public private(set) var catalogue: TerminalCatalogue?
    /// Every reader the scans since the last ``resetDiscoveredReaders()`` found, each once (by
    /// id), in the order first found: the Heft seed's `devicesCopy`.
    public internal(set) var discoveredReaders: [DiscoveredReader] = []

    init(clock: any Clock<Duration>, hub: TerminalEvents, gate: OperationGate) {
        self.clock = clock
        self.events = hub
        self.gate = gate
        (news, newsInput) = AsyncStream.makeStream()
    }

    deinit { newsInput.finish() }

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

    /// An app's connect: lets the current reader go, pairs through `body`, then lets the
    /// facade finish (updates on connect) before it returns.
    func appConnect(
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
        try await tell(.connectedByApp).get()
    }

    /// Pairs over `transport`.
    ///
    /// - Parameter pairingTimeout: what is left of a caller's connect deadline; when it runs
    ///   out the error is ``MPOSError/readerConnectTimeout``. Nil: the link's own timeout.
    func pair(transport: any ReaderTransport, secret: SharedSecret, pairingTimeout: Duration?)
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
        await tell(.paired(described))
        events.emit(.readerConnection(connected: true, info: described))
    }

    /// Lets the reader go: closes the link, stops any reconnection, forgets the way back.
    func letGo() async {
        await runAwaitingClose(machine.handle(.letGo))
        await tell(.letGo)
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

    /// Publishes `news` and waits until it is taken in; with nobody left to take it (the
    /// terminal is gone), it is taken at once.
    @discardableResult
    private func tell(_ news: ReaderLinkNews) async -> Result<Void, MPOSError> {
        await withCheckedContinuation { taken in
            let message = ReaderLinkMessage(news, taken: taken)
            if case .terminated = newsInput.yield(message) { message.taken() }
        }
    }

    // MARK: - What the part keeps

    /// Takes in a battery report from any source; the first low one warns.
    func noteBattery(_ status: BatteryStatus) {
        if battery.report(status) { events.emit(.batteryLow(status)) }
    }

    func setBatteryThreshold(_ percentage: Int) { battery.threshold = percentage }

    func replaceCatalogue(_ catalogue: TerminalCatalogue?) { self.catalogue = catalogue }
}
