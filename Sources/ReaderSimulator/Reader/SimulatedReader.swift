import CardCrypto
import EMV
import Foundation
import MPOSCore
import ReaderLink
import SandboxCards

/// A complete card reader in software, speaking ReaderLink on any transport: pairing, device
/// information, battery, logs, scanner, firmware and configuration slots, and card
/// transactions run by the EMV kernel with the sandbox's test cards and scenario amounts.
///
/// ```swift
/// let reader = SimulatedReader(configuration: SimulatedReaderConfiguration(secret: secret))
/// let (sdkSide, readerSide) = InProcessTransport.makePair()
/// Task { await reader.serve(readerSide) }
/// let connection = try await ReaderConnection.open(transport: sdkSide, secret: secret)
/// ```
///
/// One link is served at a time per `serve` call; the reader's state (battery, cards' ATCs,
/// logs, slots) outlives links, as a real reader's does.
public actor SimulatedReader {
    /// What the SDK sends while a transaction waits for it.
    enum SDKInput: Sendable {
        case application(ApplicationChoice)
        case signature(SignatureResponse)
        case host(HostResponse)
        case cancelled
        case cardPresented
        case timedOut
    }

    private var configuration: SimulatedReaderConfiguration
    private let clock: any Clock<Duration>
    private let now: @Sendable () -> Date

    private var battery: Battery
    private var log: ReaderLog
    private var scanner = BarcodeScanner()
    private var slots: FirmwareSlots
    private var cards: [String: SimulatedCard] = [:]
    private var dukpt: DUKPTReader?
    private var nextPIN: String?
    private var pendingSignatureVerdict: Bool?

    private var session: ReaderDeviceSession?
    private var transport: FaultInjectingTransport?
    private var transaction: Task<Void, Never>?
    private var transactionID: String?
    private var cancelAllowed = false
    private var waiter: CheckedContinuation<SDKInput, Never>?
    private var waiterTimeout: Task<Void, Never>?
    private var bufferedInputs: [SDKInput] = []
    private var unresponsive = false
    /// Whether events wait in `heldEvents` instead of leaving at once: while a transaction
    /// works without waiting for anyone (reading the card, PIN digits with no human delay,
    /// the kernel's cryptogram), its events leave together when it next waits or ends.
    private var holdingEvents = false
    private var heldEvents: [ReaderMessage] = []
    /// What the reader announces to discovery (name, serial number, model, protocol version).
    public nonisolated let announcement: ReaderAnnouncement
    /// Transactions the reader has finished since power-on.
    public private(set) var completedTransactions = 0
    /// Times the reader rebooted (fault injection, or after a firmware commit).
    public private(set) var reboots = 0

    /// A reader with the given configuration.
    ///
    /// - Parameters:
    ///   - clock: the clock that timeouts and human delays run on (a manual clock in tests).
    ///   - now: the date a transaction carries (9A).
    public init(
        configuration: SimulatedReaderConfiguration, clock: any Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.configuration = configuration
        self.clock = clock
        self.now = now
        self.battery = configuration.battery
        self.announcement = ReaderAnnouncement(
            name: configuration.name, serialNumber: configuration.serialNumber, model: configuration.model)
        self.log = ReaderLog(level: .info)
        self.slots = FirmwareSlots(
            firmware: .init(version: configuration.applicationVersion, bytes: Array("firmware \(configuration.applicationVersion)".utf8)),
            configuration: .init(version: configuration.emvParameterVersion, bytes: Array("config \(configuration.emvParameterVersion)".utf8)))
        self.dukpt = try? EMVKernel.sandboxReader()
    }

    // MARK: - Serving links

    /// Serves one link: pairs, then answers requests until the link closes. Returns when the
    /// link is gone (or pairing failed: a wrong secret, garbage, silence until the peer leaves).
    public func serve(_ link: any ReaderTransport) async {
        let faulty = FaultInjectingTransport(link, plan: configuration.faults, clock: clock) { [weak self] in
            await self?.rebooted()
        }
        let device: ReaderDeviceSession
        do {
            device = try await ReaderDeviceSession.accept(transport: faulty, secret: configuration.secret)
        } catch {
            record(.info, "pairing failed: \(error)")
            return
        }
        // A newer link replaces an older one, as a reader serves one host at a time.
        if let previous = session {
            await previous.close()
            abandonTransaction()
        }
        session = device
        transport = faulty
        unresponsive = false
        record(.info, "paired, protocol version \(await device.version)")
        while let request = await device.requestPipe.next() {
            await handle(request, on: device)
        }
        if session === device {
            session = nil
            transport = nil
            record(.info, "link closed")
            // A transaction whose link dropped ends where it stands; the SDK recovers its
            // outcome from the host.
            abandonTransaction()
        }
    }

    // MARK: - Controls for tests and the emulator

    /// Presents a card to the running (or the next) transaction.
    public func present(cardID: String, entryMode: CardEntryMode = .chip) throws(SimulatedReaderError) {
        guard SandboxCards.card(id: cardID) != nil else { throw .unknownCard(cardID) }
        configuration.cardID = cardID
        configuration.entryMode = entryMode
        deliver(.cardPresented)
    }

    /// The PIN the cardholder types at the next PIN prompt (default: the card's own PIN);
    /// `nil` restores the default.
    public func setNextPIN(_ pin: String?) { nextPIN = pin }

    /// Whether the cardholder answers the signature step on the reader itself: used when the
    /// SDK does not answer (nil waits for the SDK).
    public func setSignatureVerdictOnReader(_ accepted: Bool?) { pendingSignatureVerdict = accepted }

    /// Replaces the fault plan (counting continues on the current link).
    public func setFaults(_ plan: FaultPlan) {
        configuration.faults = plan
        transport?.replacePlan(plan)
    }

    /// Whether transactions wait for `present(cardID:entryMode:)`.
    public func setWaitsForCard(_ waits: Bool) { configuration.waitsForCard = waits }

    /// Sets the battery level and charging state, reporting the change to the SDK.
    public func setBattery(percentage: Int, charging: Bool? = nil) async {
        var events = battery.set(percentage)
        if let charging { events += battery.setCharging(charging) }
        await report(batteryEvents: events)
    }

    /// A barcode read by the scanner (delivered only while the SDK has enabled it).
    public func scan(_ barcode: String, symbology: String = "EAN-13") async {
        let events = scanner.feed(barcode, now: scannerTime)
        for event in events {
            if case .scanned(let code) = event {
                await emit(.scan(ScanEvent(barcode: code, symbology: symbology)))
            }
        }
    }

    /// Time on the scanner's own timeline (its timeouts are wall-clock, like a real scanner's).
    private var scannerTime: Duration { ContinuousClock.now - poweredOn }
    private let poweredOn = ContinuousClock.now

    /// The reader's log lines (never card data).
    public var logLines: [String] { log.entries.map(\.message) }

    /// The active firmware and configuration versions.
    public func activeVersions() -> (firmware: String?, configuration: String?) {
        (slots.active(.firmware)?.version, slots.active(.configuration)?.version)
    }

    /// The battery as the SDK sees it.
    public var batteryStatus: BatteryStatus {
        BatteryStatus(
            percentage: UInt8(clamping: battery.percentage), isCharging: battery.isCharging,
            hasExternalPower: battery.isCharging)
    }

    // MARK: - Requests

    private func handle(_ request: IncomingRequest, on device: ReaderDeviceSession) async {
        if unresponsive { return }
        let answer: ReaderMessage?
        switch request.message {
        case .ping: answer = .pong
        case .getDeviceInfo: answer = .deviceInfo(deviceInfo)
        case .getBattery: answer = .battery(batteryStatus)
        case .startTransaction(let start): answer = begin(start)
        case .applicationSelectionResponse(let choice):
            answer = deliverIfWaiting(.application(choice))
        case .signatureResponse(let response):
            answer = deliverIfWaiting(.signature(response))
        case .signatureVerdict(let verdict):
            answer = deliverIfWaiting(
                .signature(SignatureResponse(transactionID: verdict.transactionID, accepted: verdict.accepted, png: [])))
        case .hostResponse(let response):
            answer = deliverIfWaiting(.host(response))
        case .cancelRequest:
            if transaction != nil, cancelAllowed {
                cancelAllowed = false
                deliver(.cancelled)
                answer = .cancelResponse(accepted: true, status: .userCancelled)
            } else {
                answer = .cancelResponse(accepted: false, status: .commandNotAllowed)
            }
        case .inputResponse: answer = .ack
        case .setLogLevel(let level):
            log.level = ReaderSimulator.ReaderLogLevel(rawValue: Int(level.rawValue)) ?? .info
            answer = .ack
        case .fetchLogs: answer = .logs(logLines)
        case .resetLogs:
            log.clear()
            answer = .ack
        case .enableScanner(let scannerConfiguration):
            let timeout: Duration? =
                scannerConfiguration.timeoutSeconds == 0 ? nil : .seconds(Int(scannerConfiguration.timeoutSeconds))
            scanner.enable(
                mode: scannerConfiguration.multiScan ? .multi : .single, timeout: timeout,
                now: scannerTime)
            answer = .ack
        case .disableScanner:
            scanner.disable()
            answer = .ack
        case .updateBegin(let begin): answer = updateBegin(begin)
        case .updateChunk(let offset, let bytes): answer = updateChunk(offset: offset, bytes: bytes)
        case .updateVerify: answer = updateVerify()
        case .updateCommit: answer = updateCommit()
        case .reboot:
            try? await device.respond(to: request.id, with: .ack)
            await device.close()
            await rebooted()
            return
        default:
            answer = .error(.requestInvalid, detail: "\(request.message.kind) is not a request a reader answers")
        }
        if let answer { try? await device.respond(to: request.id, with: answer) }
    }

    private var deviceInfo: DeviceInfo {
        DeviceInfo(
            serialNumber: configuration.serialNumber, manufacturer: configuration.manufacturer,
            model: configuration.model, applicationName: configuration.applicationName,
            applicationVersion: slots.active(.firmware)?.version ?? configuration.applicationVersion,
            emvParameterVersion: slots.active(.configuration)?.version ?? configuration.emvParameterVersion,
            publicKeyVersion: configuration.publicKeyVersion, battery: batteryStatus)
    }

    // MARK: - Transactions

    private func begin(_ start: StartTransaction) -> ReaderMessage {
        guard transaction == nil else {
            return .error(.commandNotAllowed, detail: "a transaction is already in progress")
        }
        if let refusal = battery.refusal {
            return .error(refusal, detail: "battery at \(battery.percentage)%: charge the reader")
        }
        let currency: Currency?
        switch start.currency {
        case .numeric(let code): currency = Currency(numericCode: Int(code))
        case .alphabetic(let code): currency = Currency(code: code)
        }
        guard let currency else { return .error(.unsupportedCurrency, detail: "unknown currency") }
        guard start.amountMinorUnits > 0 else { return .error(.invalidData, detail: "the amount must be positive") }
        transactionID = start.transactionID
        bufferedInputs = []
        transaction = Task {
            await self.holdEvents()
            await self.run(start, currency: currency)
            await self.releaseEvents()
        }
        return .ack
    }

    private func run(_ start: StartTransaction, currency: Currency) async {
        let id = start.transactionID
        let scenario = configuration.appliesScenarios ? SandboxScenario.forAmount(minor: start.amountMinorUnits) : nil
        record(.info, "transaction \(id): \(start.kind.rawValue) \(start.amountMinorUnits) \(currency.code)")
        await status(.waitingCard, "Insert, tap or swipe card", cancelAllowed: true)
        if configuration.waitsForCard {
            switch await awaitInput(timeout: nil) {
            case .cancelled: return await finishFailed(id, .userCancelled, "cancelled")
            default: break
            }
        } else if await pause() == .cancelled {
            return await finishFailed(id, .userCancelled, "cancelled")
        }
        switch scenario {
        case .userCancelled:
            return await finishFailed(id, .userCancelled, "cancelled by the cardholder")
        case .timeout(let seconds):
            cancelAllowed = true
            switch await awaitInput(timeout: .seconds(seconds)) {
            case .cancelled: return await finishFailed(id, .userCancelled, "cancelled")
            default: return await finishFailed(id, .requestPaymentTimeout, "the card was not presented in time")
            }
        default: break
        }

        guard let sandbox = SandboxCards.card(id: configuration.cardID) else {
            return await finishFailed(id, .invalidCard, "unknown card")
        }
        let card = cards[sandbox.id] ?? (try? SimulatedCard(card: sandbox))
        guard card != nil, let reader = dukpt else {
            return await finishFailed(id, .processingError, "the card's keys are unavailable")
        }
        var kernel = EMVKernel(card: card!, reader: reader, terminal: terminalConfiguration)
        let entryMode = configuration.entryMode
        await emit(.cardEvent(cardEvent(for: entryMode)))
        await status(.cardInserted, "Card read", cancelAllowed: true)
        var step = kernel.start(
            KernelTransaction(kind: start.kind, amount: start.amountMinorUnits, currency: currency, date: now(), entryMode: entryMode))
        var pinVerified = false

        while true {
            switch step {
            case .selectApplication(let candidates):
                await status(.applicationSelection, "Select application", cancelAllowed: true)
                await emit(.applicationSelectionRequest(candidates.map {
                    ApplicationCandidate(aid: $0.aid, label: $0.label, preferredName: $0.preferredName, priority: $0.priority)
                }))
                switch await awaitInput(timeout: configuration.signatureTimeout) {
                case .application(.chosen(let index)):
                    step = kernel.selectApplication(at: Int(index))
                case .cancelled, .application(.cancel):
                    kernel.cancel()
                    save(kernel)
                    return await finishFailed(id, .userCancelled, "application selection cancelled")
                default:
                    kernel.cancel()
                    save(kernel)
                    return await finishFailed(id, .inputTimeout, "no application was selected")
                }
            case .enterPIN(let request):
                await status(
                    .pinInput, request.afterWrongPIN ? "Wrong PIN, try again" : "Enter PIN", cancelAllowed: true)
                let pin = nextPIN ?? sandbox.pin
                for digit in 1...UInt8(clamping: pin.count) {
                    await emit(.pinEntryProgress(PINEntryProgress(
                        digitsEntered: digit, attemptsLeft: request.triesRemaining.map { UInt8(clamping: $0) })))
                }
                if await pause() == .cancelled {
                    kernel.cancel()
                    save(kernel)
                    return await finishFailed(id, .userCancelled, "cancelled at PIN entry")
                }
                await status(.pinInputCompleted, "PIN entered", cancelAllowed: false)
                if nextPIN == sandbox.pin || nextPIN == nil { pinVerified = true }
                if request.afterWrongPIN == false, nextPIN != nil, nextPIN != sandbox.pin {
                    // A wrong PIN once, then the right one, as a person would retry.
                    nextPIN = nil
                }
                step = kernel.enterPIN(pin)
            case .goOnline(let authorization):
                cancelAllowed = false
                await status(.waitingHostSend, "Authorizing", cancelAllowed: false)
                dukpt = kernel.reader
                if case .linkError(let failure) = scenario, await linkFails(failure, before: true) {
                    save(kernel)
                    return
                }
                await emit(.authorizationRequest(AuthorizationRequest(
                    transactionID: id, emvData: authorization.emvData,
                    encryptedCardData: authorization.encryptedCardData, ksn: authorization.ksn,
                    maskedPAN: authorization.maskedPAN, cardholderName: authorization.cardholderName,
                    expiry: authorization.expiry, entryMode: authorization.entryMode, cvm: authorization.cvm,
                    applicationLabel: authorization.applicationLabel,
                    aid: authorization.aid.flatMap { try? Hex.decode($0) })))
                dukpt = kernel.reader
                guard case .host(let host) = await awaitInput(timeout: nil) else {
                    kernel.cancel()
                    save(kernel)
                    return await finishFailed(id, .responseAuthTimeout, "no host response")
                }
                if case .linkError(let failure) = scenario, await linkFails(failure, before: false) {
                    save(kernel)
                    return
                }
                await status(.waitingHostReceive, "Completing", cancelAllowed: false)
                step = kernel.complete(
                    hostApproved: host.approved, responseCode: host.authorizationResponseCode,
                    issuerAuthenticationData: host.issuerAuthenticationData.isEmpty ? nil : host.issuerAuthenticationData)
            case .completed(let outcome):
                save(kernel)
                dukpt = kernel.reader
                var approved = outcome.approved
                var cvm = outcome.authorization.cvm
                if approved, outcome.authorization.signatureRequired || scenario == .signatureRequested {
                    approved = await collectSignature(id)
                    cvm = .signature
                }
                let statusCode: ReaderStatusCode = approved ? .success : (outcome.approved ? .invalidSignature : .cardCancelled)
                await finish(TransactionOutcome(
                    transactionID: id, cryptogramType: approved ? .tc : .aac, emvData: outcome.emvData,
                    status: statusCode, cvm: cvm, entryMode: outcome.authorization.entryMode,
                    pinVerified: pinVerified && (cvm == .pin || cvm == .pinAndSignature)))
                return
            case .failed(let failure):
                save(kernel)
                return await finishFailed(id, failure.statusCode, failure.description)
            }
        }
    }

    /// Plays a 90.01–90.05 link failure around the authorization request (`before`) or after
    /// the host's answer arrived. Returns true when the transaction ends here: the SDK then
    /// sees the link drop, a frame fail its MAC, or silence, and must find the outcome at the
    /// host.
    private func linkFails(_ failure: SandboxScenario.LinkError, before: Bool) async -> Bool {
        // What the reader said before the failure reaches the SDK first, as it would have.
        let held = holdingEvents
        await releaseEvents()
        holdingEvents = held
        switch (failure, before) {
        case (.dropBeforeAuthorization, true), (.dropAfterAuthorization, false):
            record(.info, "scenario: the link drops")
            await session?.close()
            return true
        case (.readerReboot, true):
            record(.info, "scenario: the reader reboots")
            await session?.close()
            await rebooted()
            return true
        case (.readerUnresponsive, true):
            record(.info, "scenario: the reader stops answering")
            unresponsive = true
            // Silent on the wire too: the link layer answers pings by itself, and a reader
            // that still pongs is not silent (the SDK's keep-alive would never notice).
            if let transport {
                transport.replacePlan(FaultPlan(
                    configuration.faults.faults + [.stopResponding(fromMessage: transport.writeCount + 1)]))
            }
            return true
        case (.corruptFrame, true):
            // The next frame the reader writes (the authorization request) arrives damaged.
            if let transport {
                let next = transport.writeCount + 1
                transport.replacePlan(FaultPlan(configuration.faults.faults + [.corruptFrame(atMessage: next)]))
            }
            return false
        default:
            return false
        }
    }

    /// Asks for the signature and waits for the merchant's verdict (or times out, cancelling).
    private func collectSignature(_ id: String) async -> Bool {
        await status(.waitingSignature, "Signature required", cancelAllowed: false)
        if let verdict = pendingSignatureVerdict { return verdict }
        await emit(.signatureRequired(transactionID: id))
        switch await awaitInput(timeout: configuration.signatureTimeout) {
        case .signature(let response): return response.accepted
        default:
            record(.info, "transaction \(id): no signature verdict in time")
            return false
        }
    }

    private var terminalConfiguration: TerminalConfiguration {
        var terminal = TerminalConfiguration()
        terminal.appliesScenarios = configuration.appliesScenarios
        return terminal
    }

    private func cardEvent(for entryMode: CardEntryMode) -> CardEvent {
        switch entryMode {
        case .contactless: .tapped
        case .magstripe, .magstripeFallback: .swiped
        default: .inserted
        }
    }

    private func save(_ kernel: EMVKernel) {
        cards[kernel.card.card.id] = kernel.card
        dukpt = kernel.reader
    }

    private func finishFailed(_ id: String, _ code: ReaderStatusCode, _ message: String) async {
        record(.info, "transaction \(id): \(message)")
        await status(code, message, cancelAllowed: false)
        await finish(TransactionOutcome(
            transactionID: id, cryptogramType: .aac, emvData: [], status: code, cvm: .notRequired,
            entryMode: configuration.entryMode, pinVerified: false))
    }

    private func finish(_ outcome: TransactionOutcome) async {
        cancelAllowed = false
        await emit(.transactionOutcome(outcome))
        if configuration.entryMode == .chip, outcome.status != .userCancelled {
            await emit(.cardEvent(.removed))
        }
        completedTransactions += 1
        await report(batteryEvents: battery.recordTransaction())
        transaction = nil
        transactionID = nil
        bufferedInputs = []
    }

    private func abandonTransaction() {
        holdingEvents = false
        heldEvents = []
        transaction?.cancel()
        transaction = nil
        transactionID = nil
        cancelAllowed = false
        resumeWaiter(with: .cancelled)
    }

    // MARK: - Waiting for the SDK

    private enum PauseResult { case elapsed, cancelled }

    /// The human delay, interruptible by a cancel.
    private func pause() async -> PauseResult {
        if case .cancelled? = bufferedInputs.first(where: { if case .cancelled = $0 { true } else { false } }) {
            return .cancelled
        }
        guard configuration.humanDelay > .zero else { return .elapsed }
        if case .cancelled = await awaitInput(timeout: configuration.humanDelay) { return .cancelled }
        return .elapsed
    }

    /// Waits for the SDK's next input, or `.timedOut` after `timeout`.
    private func awaitInput(timeout: Duration?) async -> SDKInput {
        if !bufferedInputs.isEmpty { return bufferedInputs.removeFirst() }
        // Everything said so far reaches the SDK before the reader waits for it; while the
        // transaction waits, other events (a scan, the battery) leave at once.
        let held = holdingEvents
        await releaseEvents()
        defer { holdingEvents = held }
        return await withCheckedContinuation { (continuation: CheckedContinuation<SDKInput, Never>) in
            waiter = continuation
            if let timeout {
                waiterTimeout = Task { [clock] in
                    do { try await clock.sleep(for: timeout) } catch { return }
                    self.timeoutWaiter()
                }
            }
        }
    }

    private func timeoutWaiter() { resumeWaiter(with: .timedOut) }

    private func resumeWaiter(with input: SDKInput) {
        guard let waiter else { return }
        self.waiter = nil
        waiterTimeout?.cancel()
        waiterTimeout = nil
        waiter.resume(returning: input)
    }

    private func deliver(_ input: SDKInput) {
        guard transaction != nil else { return }
        if waiter != nil { resumeWaiter(with: input) } else { bufferedInputs.append(input) }
    }

    private func deliverIfWaiting(_ input: SDKInput) -> ReaderMessage {
        guard transaction != nil else {
            return .error(.commandNotAllowed, detail: "no transaction is waiting for this")
        }
        deliver(input)
        return .ack
    }

    // MARK: - Updates

    private func component(_ slot: UpdateSlot) -> FirmwareSlots.Component {
        slot == .firmware ? .firmware : .configuration
    }

    private var updating: FirmwareSlots.Component?

    private func updateBegin(_ begin: UpdateBegin) -> ReaderMessage {
        let target = component(begin.slot)
        do {
            try slots.beginTransfer(target, version: begin.version, size: Int(begin.size), sha256: begin.sha256)
            updating = target
            return .updateAck(UpdateAck(offset: UInt32(slots.resumeOffset(target) ?? 0), status: .success))
        } catch {
            return .error(.invalidData, detail: "update rejected: \(error)")
        }
    }

    private func updateChunk(offset: UInt32, bytes: [UInt8]) -> ReaderMessage {
        guard let updating else { return .error(.commandNotAllowed, detail: "no update in progress") }
        do {
            try slots.stage(updating, offset: Int(offset), chunk: bytes)
            return .updateAck(UpdateAck(offset: UInt32(slots.resumeOffset(updating) ?? 0), status: .success))
        } catch .offsetMismatch(let expected) {
            return .updateAck(UpdateAck(offset: UInt32(expected), status: .invalidData))
        } catch {
            return .error(.invalidData, detail: "chunk rejected: \(error)")
        }
    }

    private func updateVerify() -> ReaderMessage {
        guard let updating else { return .error(.commandNotAllowed, detail: "no update in progress") }
        do {
            try slots.verify(updating)
            return .updateAck(UpdateAck(offset: UInt32(slots.resumeOffset(updating) ?? 0), status: .success))
        } catch {
            return .error(.invalidData, detail: "verification failed: \(error)")
        }
    }

    private func updateCommit() -> ReaderMessage {
        guard let updating else { return .error(.commandNotAllowed, detail: "no update in progress") }
        do {
            let image = try slots.commit(updating)
            self.updating = nil
            record(.info, "\(updating.rawValue) \(image.version) active")
            return .ack
        } catch {
            return .error(.commandNotAllowed, detail: "commit refused: \(error)")
        }
    }

    private func rebooted() async {
        reboots += 1
        abandonTransaction()
        if let updating { slots.interrupt(updating) }
        updating = nil
        scanner.disable()
        session = nil
        transport = nil
        record(.info, "rebooted")
    }

    // MARK: - Output

    private func emit(_ message: ReaderMessage) async {
        guard let session, !unresponsive else { return }
        if holdingEvents {
            heldEvents.append(message)
            return
        }
        do { try await session.emit(message) } catch { record(.debug, "emit failed: \(error)") }
    }

    /// From now on, events wait for ``releaseEvents()``.
    private func holdEvents() { holdingEvents = true }

    /// Sends the held events, in order and together, and stops holding.
    private func releaseEvents() async {
        holdingEvents = false
        guard !heldEvents.isEmpty else { return }
        let events = heldEvents
        heldEvents = []
        guard let session, !unresponsive else { return }
        do { try await session.emit(events) } catch { record(.debug, "emit failed: \(error)") }
    }

    private func status(_ code: ReaderStatusCode, _ message: String, cancelAllowed: Bool) async {
        self.cancelAllowed = cancelAllowed
        await emit(.statusReport(StatusReport(
            status: code, message: message, cancelAllowed: cancelAllowed, transactionID: transactionID)))
    }

    private func report(batteryEvents: [Battery.Event]) async {
        for event in batteryEvents {
            switch event {
            case .low(let percentage):
                record(.info, "battery low: \(percentage)%")
                await emit(.battery(batteryStatus))
                await emit(.statusReport(StatusReport(
                    status: .batteryTooLow, message: "Battery low (\(percentage)%)", cancelAllowed: false)))
            case .critical, .charging:
                await emit(.battery(batteryStatus))
            }
        }
    }

    private func record(_ level: ReaderSimulator.ReaderLogLevel, _ message: String) {
        _ = log.append(level, message)
    }
}

/// Why a control call on the simulated reader failed.
public enum SimulatedReaderError: Error, Sendable, Hashable {
    /// No sandbox card has this id.
    case unknownCard(String)
}
