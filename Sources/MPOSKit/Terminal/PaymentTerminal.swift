import Foundation
import GatewayAPI
import MPOSCore
import ReaderLink

/// The SDK's front door: one payment terminal (a gateway session and, once connected, a
/// card reader) that runs one operation at a time.
///
/// ```swift
/// let terminal = try PaymentTerminal(
///     environment: URL(string: "https://sandbox.example")!,
///     credentials: .login(user: "merchant", password: "…"), journalPath: journalFile)
/// try await terminal.login()
/// try await terminal.connectReader(transport: transport, secret: secret)
/// let result = try await terminal.sale(PaymentParameters(amount: 1234, currency: .eur))
/// print(result.customerReceipt)
/// ```
///
/// Every sale is journaled before its gateway request leaves; a lost gateway answer is
/// looked up by the idempotency key; an approval the card declines is reversed; and
/// ``login()`` finishes whatever an earlier run left unfinished.
public actor PaymentTerminal {
    /// Every event, as it happens. See ``subscribe(_:)`` for a filtered stream.
    public nonisolated let events: AsyncStream<TerminalEvent>

    /// Sees events as they happen, on the terminal's executor (see ``addEventHandler(_:_:)``).
    public typealias EventHandler = @Sendable (TerminalEvent) -> Void
    /// Decides on a cardholder's signature.
    public typealias SignatureHandler = @Sendable () async -> SignatureDecision
    /// Picks an application from the candidates the card offers (an index, or `nil` to
    /// cancel).
    public typealias ApplicationSelectionHandler = @Sendable ([ApplicationCandidate]) async -> Int?

    /// Feeds ``events``, keeping the newest only, so that a terminal nobody listens to does
    /// not hoard events.
    private let eventsSink: AsyncStream<TerminalEvent>.Continuation
    let subscribers = EventBroadcaster<TerminalEvent>()
    var eventHandlers: [(Set<TerminalEventCategory>, EventHandler)] = []
    let client: GatewayClient
    private let journal: PaymentJournal
    let clock: any Clock<Duration>
    var connection: ReaderConnection?
    /// How to reach the reader again after a drop (set by the factory form of `connectReader`).
    var reconnectPlan: ReconnectPlan?
    var reconnecting: Task<Void, Never>?
    private var readerPump: Task<Void, Never>?
    private var info: DeviceInfo?
    /// When the reader's battery counts as low, and whether that was already said.
    var batteryWatch = BatteryWatch()
    var busy = false
    /// Whether the journal may hold card attempts, or follow-ups, left unfinished (their
    /// outcome unknown, or a reversal not confirmed): set when an operation ends so, cleared
    /// by a pass that finishes them all. Until the first pass (at login) the journal is not
    /// known. While both are false no operation reads the journal before it starts.
    var cardAttemptsMayBeUnfinished = true
    var followUpsMayBeUnfinished = true
    private var inbox: AsyncStream<PaymentEngine.Event>.Continuation?
    private var engine: PaymentEngine?
    private var signatureHandler: SignatureHandler?
    private var applicationHandler: ApplicationSelectionHandler?
    /// How long the merchant has to decide on a signature before the payment is cancelled.
    public let signatureTimeout: Duration

    /// Creates a terminal.
    ///
    /// - Parameters:
    ///   - environment: the gateway's base URL.
    ///   - credentials: how to authenticate.
    ///   - journalPath: the SQLite file of the payment journal (created if missing).
    ///   - transport: the HTTP seam; URLSession by default.
    ///   - clock: the clock of timeouts and retries (a manual clock in tests).
    ///   - signatureTimeout: 45 s by default.
    /// - Throws: ``MPOSError/journalFailed`` when the journal cannot be opened.
    public init(
        environment: URL, credentials: GatewayCredentials, journalPath: String,
        transport: any GatewayTransport = URLSessionGatewayTransport(), clock: any Clock<Duration> = ContinuousClock(),
        signatureTimeout: Duration = .seconds(45)
    ) throws(MPOSError) {
        journal = try PaymentJournal(path: journalPath)
        client = GatewayClient(baseURL: environment, credentials: credentials, transport: transport)
        self.clock = clock
        self.signatureTimeout = signatureTimeout
        (events, eventsSink) = AsyncStream.makeStream(of: TerminalEvent.self, bufferingPolicy: .bufferingNewest(256))
    }

    /// A stream of the events in `categories` only.
    public func subscribe(_ categories: Set<TerminalEventCategory> = Set(TerminalEventCategory.allCases))
        -> AsyncStream<TerminalEvent>
    {
        subscribers.subscribe { categories.contains($0.category) }
    }

    /// Calls `handler` with each event in `categories` as it happens, before the operation
    /// that caused it goes on: when `sale` returns, the handler has seen all of its events, in
    /// order (a stream's reader may still be catching up). The handler runs on the terminal's
    /// executor, so it must be quick and must not wait for the terminal. ``reset()`` removes it.
    public func addEventHandler(
        _ categories: Set<TerminalEventCategory> = Set(TerminalEventCategory.allCases),
        _ handler: @escaping EventHandler
    ) {
        eventHandlers.append((categories, handler))
    }

    /// Sets who decides on signatures. Without a handler signatures are accepted.
    public func setSignatureHandler(_ handler: SignatureHandler?) { signatureHandler = handler }

    /// Sets who picks the application on multi-application cards. Without a handler the
    /// first candidate is chosen.
    public func setApplicationSelectionHandler(_ handler: ApplicationSelectionHandler?) { applicationHandler = handler }

    // MARK: - Session

    /// Authenticates with the gateway, then finishes whatever the journal holds unfinished
    /// (see ``recoverUnfinished()``).
    ///
    /// - Throws: ``MPOSError/gatewayUnauthorized``, ``MPOSError/gatewayUnreachable``.
    public func login() async throws(MPOSError) {
        try await client.login()
        try await recoverUnfinished()
    }

    /// The reader link's keep-alive interval (docs/reader-protocol.md §6): after this long
    /// without a frame from the reader and nothing pending, the SDK pings; an unanswered ping
    /// closes the link. Without it a reader that goes silent mid-transaction (or whose frame
    /// was lost to a checksum failure) would leave the sale waiting for ever.
    static let readerKeepAlive: Duration = .seconds(15)

    /// Pairs with a reader over `transport`; keeps the link alive with pings (see
    /// ``readerKeepAlive``).
    ///
    /// - Throws: ``MPOSError/terminalBusy`` during an operation, or the link's error
    ///   (wrong secret, timeout) as an `MPOSError`.
    public func connectReader(transport: any ReaderTransport, secret: SharedSecret) async throws(MPOSError) {
        guard !busy else { throw MPOSError.terminalBusy }
        await disconnect()
        try await pair(transport: transport, secret: secret)
    }

    /// Pairs over `transport` and starts listening to the reader.
    ///
    /// - Parameter pairingTimeout: what is left of a caller's connect deadline; when it runs
    ///   out the error is ``MPOSError/readerConnectTimeout``. Nil: the link's own timeout.
    func pair(transport: any ReaderTransport, secret: SharedSecret, pairingTimeout: Duration? = nil) async throws(MPOSError) {
        let link: ReaderConnection
        do {
            link = try await ReaderConnection.open(
                transport: transport, secret: secret, clock: clock, keepAlive: Self.readerKeepAlive,
                pairingTimeout: pairingTimeout)
        } catch .timeout where pairingTimeout != nil {
            throw MPOSError.readerConnectTimeout
        } catch {
            throw MPOSError.readerLinkFailed.withMessage("The reader could not be paired: \(error).")
        }
        connection = link
        readerPump = Task { await self.listen(to: link) }
        let info = try? await deviceInfo()
        emit(.readerConnection(connected: true, info: info))
    }

    /// Closes the reader link and stops any reconnection.
    public func disconnect() async {
        reconnectPlan = nil
        reconnecting?.cancel()
        reconnecting = nil
        guard let link = connection else { return }
        connection = nil
        await link.close()
        readerPump?.cancel()
        readerPump = nil
        info = nil
        inbox?.yield(.readerLost)
        emit(.readerConnection(connected: false, info: nil))
    }

    /// The connected reader's description.
    ///
    /// - Throws: ``MPOSError/readerNotConnected``, ``MPOSError/readerLinkFailed``.
    public func deviceInfo() async throws(MPOSError) -> DeviceInfo {
        let info: DeviceInfo = try await ask(.getDeviceInfo, "device info") { answer in
            if case .deviceInfo(let info) = answer { info } else { nil }
        }
        self.info = info
        noteBattery(info.battery)
        return info
    }

    /// Sends `request` to the connected reader and picks the expected answer out of its reply.
    func ask<Answer>(
        _ request: ReaderMessage, _ what: String, _ pick: (ReaderMessage) -> Answer?
    ) async throws(MPOSError) -> Answer {
        guard let connection else { throw MPOSError.readerNotConnected }
        let answer: ReaderMessage
        do { answer = try await connection.request(request) } catch {
            throw MPOSError.readerLinkFailed.withMessage("The reader did not answer \(what): \(error).")
        }
        guard let picked = pick(answer) else {
            throw MPOSError.readerLinkFailed.withMessage("The reader answered \(what) with another message.")
        }
        return picked
    }

    // MARK: - Operations

    /// Runs a card sale: reader, gateway, card completion, reversal when needed.
    ///
    /// Returns a result for every outcome the payment reached (approved, declined,
    /// cancelled, failed); throws only when it could not start.
    ///
    /// - Throws: validation errors (before any I/O), ``MPOSError/terminalBusy``,
    ///   ``MPOSError/notLoggedIn``, ``MPOSError/readerNotConnected``,
    ///   ``MPOSError/journalFailed``.
    public func sale(_ parameters: PaymentParameters) async throws(MPOSError) -> PaymentResult {
        try await runCard(parameters, kind: .sale)
    }

    /// Runs any card-present operation through the reader and the gateway with the sale's
    /// guarantees (journal first, lookup by key, reversal of what the card did not complete).
    func runCard(
        _ parameters: PaymentParameters, kind: CardOperation, mandateReference: String? = nil
    ) async throws(MPOSError) -> PaymentResult {
        try parameters.validate()
        if kind == .sepa, parameters.currency != .eur {
            throw MPOSError.invalidArgument.withMessage("A SEPA direct debit is in EUR, not \(parameters.currency.code).")
        }
        guard !busy else { throw MPOSError.terminalBusy }
        busy = true
        defer { busy = false }
        guard await client.isLoggedIn else { throw MPOSError.notLoggedIn }
        guard let connection else { throw MPOSError.readerNotConnected }
        if cardAttemptsMayBeUnfinished {
            // An earlier attempt whose outcome stayed unknown (the gateway out of reach) may
            // stand approved at the gateway although its card declined: reverse it before
            // the customer presents a card again, not at the next login. One try each, so a
            // gateway still down does not hold the new payment up; what is left stays for later.
            _ = try? await finishUnfinished(cardAttemptsOnly: true, patiently: false)
        }
        let key = IdempotencyKey()
        let readerID = "sdk-" + key.rawValue.prefix(8)
        let (events, eventsInbox) = AsyncStream.makeStream(of: PaymentEngine.Event.self)
        inbox = eventsInbox
        defer {
            inbox = nil
            engine = nil
            eventsInbox.finish()
        }
        engine = PaymentEngine(
            parameters: parameters, kind: kind, key: key, readerTransactionID: String(readerID),
            merchantName: await client.merchant?.name, now: Date())
        engine?.mandateReference = mandateReference
        eventsInbox.yield(.start)
        for await event in events {
            guard var current = engine else { break }
            let effects = current.handle(event)
            engine = current
            for effect in effects {
                if let result = try await perform(effect, connection: connection, inbox: eventsInbox) { return result }
            }
        }
        throw MPOSError.readerLinkFailed.withMessage("The \(kind.rawValue) ended without an outcome.")
    }

    /// Asks the reader to cancel the running sale. Honoured only while the reader allows it
    /// (waiting for a card, application selection, PIN entry).
    ///
    /// - Returns: whether the reader accepted the cancel.
    @discardableResult
    public func cancel() async -> Bool {
        guard let engine, engine.isCancelAllowed, let connection else { return false }
        guard case .cancelResponse(let accepted, _) = try? await connection.request(
            .cancelRequest(transactionID: engine.readerTransactionID))
        else { return false }
        return accepted
    }

    /// Refunds (part of) a captured sale; `amount` nil refunds what remains.
    ///
    /// - Throws: ``MPOSError/amountNotPositive``, ``MPOSError/invalidArgument``,
    ///   ``MPOSError/terminalBusy``, ``MPOSError/notLoggedIn``, ``MPOSError/journalFailed``.
    public func refund(transactionID: TransactionID, amount: Int64? = nil) async throws(MPOSError) -> PaymentResult {
        if let amount, amount <= 0 { throw MPOSError.amountNotPositive }
        return try await followUp(
            "refund", kind: .refund, path: GatewayPaths.transaction(GatewayPaths.refund, id: transactionID.rawValue),
            original: transactionID, amount: amount, body: RefundRequest(amount: amount))
    }

    /// Voids a sale or refund before its batch closes.
    ///
    /// - Throws: ``MPOSError/terminalBusy``, ``MPOSError/notLoggedIn``, ``MPOSError/journalFailed``.
    public func void(transactionID: TransactionID) async throws(MPOSError) -> PaymentResult {
        try await followUp(
            "void", kind: .saleVoid, path: GatewayPaths.transaction(GatewayPaths.void, id: transactionID.rawValue),
            original: transactionID, amount: nil, body: VoidRequest())
    }

    /// One page of the merchant's transactions.
    public func searchTransactions(_ request: TransactionSearchRequest = TransactionSearchRequest())
        async throws(MPOSError) -> TransactionPage
    {
        try await client.query(GatewayPaths.searchTransactions, body: request, as: TransactionPage.self)
    }

    /// Turnover statistics.
    public func statistics(_ request: StatisticsRequest) async throws(MPOSError) -> StatisticsResponse {
        try await client.query(GatewayPaths.statistics, body: request, as: StatisticsResponse.self)
    }

    /// Finishes every journaled attempt an earlier run left unfinished: looks each up by its
    /// key, reverses approvals whose card never completed, and marks the rest finished.
    /// Attempts the gateway cannot be asked about stay for the next call.
    ///
    /// - Returns: how many attempts were finished.
    @discardableResult
    public func recoverUnfinished() async throws(MPOSError) -> Int {
        // An operation in flight owns its entry; the next call finishes the rest.
        guard !busy else { return 0 }
        busy = true
        defer { busy = false }
        return try await finishUnfinished(cardAttemptsOnly: false)
    }

    /// Finishes the journal's unfinished attempts (card attempts only, or every one) and
    /// notes whether card attempts are left. With `patiently` false a reversal the gateway
    /// cannot confirm at once is left for later instead of retried on the clock.
    private func finishUnfinished(cardAttemptsOnly: Bool, patiently: Bool = true) async throws(MPOSError) -> Int {
        var finished = 0
        var cardAttemptsLeft = false, followUpsLeft = false
        for var entry in try journal.unfinished() {
            let isCard = CardOperation.isCardOperation(entry.operation)
            if cardAttemptsOnly && !isCard { continue }
            var done = false
            switch entry.state {
            case .created, .authorizing:
                // A `created` entry's request may have left too: its later states are not
                // synced (see `JournalEntry.mustBeDurable`). The gateway knows.
                switch await client.lookup(IdempotencyKey(rawValue: entry.key) ?? IdempotencyKey()) {
                case .found(.transaction(let transaction)):
                    entry.gatewayTransactionID = transaction.id.rawValue
                    if isCard && transaction.status.isApproval {
                        entry.state = .reversing
                        try await journal.write(entry)
                        done = await reverse(transaction.id, key: entry.reversalKey, reason: .timeout, patiently: patiently)
                        entry.outcome = PaymentStatus.declined.rawValue
                    } else {
                        entry.outcome = transaction.status.isApproval ? PaymentStatus.approved.rawValue : PaymentStatus.declined.rawValue
                        done = true
                    }
                case .found(.refused), .notFound:
                    entry.outcome = PaymentStatus.failed.rawValue
                    done = true
                case .inProgress, .unreachable:
                    done = false
                }
            case .approved, .reversing:
                if let id = entry.gatewayTransactionID.flatMap(TransactionID.init(rawValue:)) {
                    entry.state = .reversing
                    try await journal.write(entry)
                    done = await reverse(id, key: entry.reversalKey, reason: .terminalError, patiently: patiently)
                    entry.outcome = PaymentStatus.declined.rawValue
                }
            case .finished:
                done = true
            }
            if done {
                entry.state = .finished
                entry.updatedAt = Date()
                try await journal.write(entry)
                finished += 1
            } else if isCard {
                cardAttemptsLeft = true
            } else {
                followUpsLeft = true
            }
        }
        cardAttemptsMayBeUnfinished = cardAttemptsLeft
        if !cardAttemptsOnly { followUpsMayBeUnfinished = followUpsLeft }
        return finished
    }

    // MARK: - Internals

    private func perform(
        _ effect: PaymentEngine.Effect, connection: ReaderConnection, inbox: AsyncStream<PaymentEngine.Event>.Continuation
    ) async throws(MPOSError) -> PaymentResult? {
        switch effect {
        case .journal(var entry):
            entry.updatedAt = Date()
            guard entry.outcome != nil else {
                // Queued: the reader exchange goes on while SQLite syncs. The attempt's first
                // record is on disk before the gateway request leaves (see `settleJournal`).
                journal.enqueue(entry, durable: entry.mustBeDurable)
                return nil
            }
            // An outcome: written and synced now (after what is queued), before the app hears
            // of it. If it fails the payment still goes on: the gateway knows the outcome, and
            // the attempt is looked up by key at the next start.
            try? await journal.write(entry)
        case .sendToReader(let message):
            do {
                _ = try await connection.request(message)
            } catch {
                if case .startTransaction = message {
                    inbox.yield(.readerRefused(MPOSError.readerLinkFailed.withMessage("The reader refused to start: \(error).")))
                } else if case .rejected = error {
                    // A late answer (a verdict after the reader timed out): the outcome follows.
                } else {
                    inbox.yield(.readerLost)
                }
            }
        case .authorize(let request, let key):
            try await settleJournal(key, connection: connection)
            do {
                let answer: GatewayAnswer
                if engine?.kind == .sepa {
                    answer = try await client.send("POST", GatewayPaths.sepaPayment, body: SEPAPaymentRequest(
                        amount: request.amount, currency: request.currency, encryptedCardData: request.encryptedCardData,
                        ksn: request.ksn, emvData: request.emvData, maskedPAN: request.maskedPAN, entryMode: request.entryMode,
                        mandateReference: engine?.mandateReference, customerReference: request.customerReference,
                        externalID: request.externalID, basket: request.basket), key: key)
                } else {
                    answer = try await client.send("POST", GatewayPaths.authorizeCard, body: request, key: key)
                }
                inbox.yield(.gatewayAnswered(answer))
            } catch {
                inbox.yield(.gatewayUnreachable)
            }
        case .lookup(let key, let delay):
            if delay > .zero { try? await clock.sleep(for: delay) }
            inbox.yield(.lookedUp(await client.lookup(key)))
        case .reverse(let id, let key, let reason):
            inbox.yield(.reversalFinished(await reverse(id, key: key, reason: reason)))
        case .emit(let event):
            emit(event)
        case .askApplication(let candidates):
            let handler = applicationHandler
            Task {
                let index: Int? = if let handler { await handler(candidates) } else { 0 }
                inbox.yield(.applicationChosen(index.flatMap { UInt8(exactly: $0) }))
            }
        case .askSignature:
            let handler = signatureHandler
            let clock = self.clock
            let timeout = signatureTimeout
            Task {
                if let handler {
                    inbox.yield(.signatureDecided(await Deadline.first(handler, orNilAfter: timeout, on: clock)))
                } else {
                    inbox.yield(.signatureDecided(.accept))
                }
            }
        case .finish(let result):
            if engine?.leavesJournalUnfinished == true { cardAttemptsMayBeUnfinished = true }
            return result
        }
        return nil
    }

    /// Waits until the attempt's first record is on disk before its gateway request leaves
    /// (usually it is: it was queued when the reader started). Without it nothing may leave:
    /// the card is told to decline (it then completes with a refusal) and the operation fails
    /// with the journal's error. The unsynced updates since only save recovery a lookup, so
    /// their failure does not stop the payment.
    private func settleJournal(_ key: IdempotencyKey, connection: ReaderConnection) async throws(MPOSError) {
        let failures = await journal.settleDurable()
        guard let failure = failures.first(where: { $0.entry.key == key.rawValue && $0.durable }) else { return }
        if let id = failure.entry.readerTransactionID {
            _ = try? await connection.request(.hostResponse(HostResponse(
                transactionID: id, approved: false, authorizationResponseCode: "")))
        }
        throw failure.error
    }

    /// Reverses idempotently; true once the gateway confirmed (or the transaction can no
    /// longer be reversed), false when it could not be asked.
    private func reverse(_ id: TransactionID, key: IdempotencyKey, reason: ReversalReason, patiently: Bool = true)
        async -> Bool
    {
        let path = GatewayPaths.transaction(GatewayPaths.reverse, id: id.rawValue)
        return await idempotent(path, body: ReverseRequest(reason: reason), key: key, patiently: patiently) != nil
    }

    /// Sends with `key` until the answer is known: a lost answer is looked up by key, and
    /// the request is sent again only when the gateway never saw it. Nil when unknowable now;
    /// with `patiently` false, after one lookup instead of several spaced on the clock.
    private func idempotent<Body: Encodable & Sendable>(
        _ path: String, body: Body, key: IdempotencyKey, patiently: Bool = true
    ) async -> GatewayAnswer? {
        let maximumLookups = patiently ? PaymentEngine.maximumLookups : 1
        for _ in 0...PaymentEngine.maximumResends {
            do {
                return try await client.send("POST", path, body: body, key: key)
            } catch {
                var lookups = 0
                lookup: while lookups < maximumLookups {
                    switch await client.lookup(key) {
                    case .found(let answer): return answer
                    case .notFound: break lookup
                    case .inProgress, .unreachable:
                        lookups += 1
                        if lookups < maximumLookups { try? await clock.sleep(for: .milliseconds(250 << min(lookups, 5))) }
                    }
                }
                if lookups >= maximumLookups { return nil }
            }
        }
        return nil
    }

    /// Sends one gateway-only operation (no card) idempotently, journaled first: a follow-up
    /// of `original` (refund, void, capture, tip) or a record of its own (cash).
    ///
    /// A follow-up whose outcome an earlier call could not learn (the gateway unreachable
    /// through every lookup: the result said ``MPOSError/gatewayUnreachable``) is still in
    /// the journal, unfinished. Asking for the same operation on the same original with the
    /// same amount resumes it under its idempotency key instead of making a second one: the
    /// gateway answers what it did the first time, or does it now if it never saw it. (Cash
    /// records have no original, so a second one of the same amount may be meant: they are
    /// not resumed; the next login finishes them.)
    ///
    /// - Parameters:
    ///   - kind: the kind a result reports when the gateway recorded nothing.
    ///   - currency: the currency a result reports when the gateway recorded nothing.
    func followUp<Body: Encodable & Sendable>(
        _ operation: String, kind: TransactionKind, path: String, original: TransactionID?, amount: Int64?,
        currency: Currency? = nil, body: Body
    ) async throws(MPOSError) -> PaymentResult {
        guard !busy else { throw MPOSError.terminalBusy }
        busy = true
        defer { busy = false }
        guard await client.isLoggedIn else { throw MPOSError.notLoggedIn }
        let now = Date()
        let key: IdempotencyKey
        var entry: JournalEntry
        if let original, followUpsMayBeUnfinished,
            let unknown = try unfinishedFollowUp(operation, of: original, amount: amount),
            let unknownKey = IdempotencyKey(rawValue: unknown.key)
        {
            key = unknownKey
            entry = unknown
        } else {
            key = IdempotencyKey()
            entry = JournalEntry(
                key: key.rawValue, operation: operation, readerTransactionID: nil,
                originalTransactionID: original?.rawValue, amount: amount, currency: currency?.code,
                state: .authorizing, maskedPAN: nil, gatewayTransactionID: nil, outcome: nil, createdAt: now,
                updatedAt: now)
            try await journal.write(entry)
        }
        let answer = await idempotent(path, body: body, key: key)
        let merchant = await client.merchant?.name
        switch answer {
        case .transaction(let transaction):
            let status: PaymentStatus = transaction.status == .declined || transaction.status == .failed ? .declined : .approved
            entry.state = .finished
            entry.gatewayTransactionID = transaction.id.rawValue
            entry.outcome = status.rawValue
            entry.updatedAt = Date()
            try await journal.write(entry)
            emit(.completed(status))
            return PaymentResult(
                status: status, kind: transaction.kind, requestedAmount: amount ?? transaction.requestedAmount,
                approvedAmount: transaction.approvedAmount, currency: transaction.currency, transactionID: transaction.id,
                idempotencyKey: key, authorizationCode: transaction.authorizationCode, responseCode: transaction.responseCode,
                cvm: transaction.cvm, entryMode: transaction.entryMode, maskedPAN: transaction.card?.maskedPAN,
                scheme: transaction.card?.scheme, merchantName: merchant, date: transaction.createdAt)
        case .refused(let status, let body):
            entry.state = .finished
            entry.outcome = PaymentStatus.failed.rawValue
            entry.updatedAt = Date()
            try await journal.write(entry)
            emit(.completed(.failed))
            return PaymentResult(
                status: .failed, kind: kind, requestedAmount: amount ?? 0, approvedAmount: 0, currency: currency ?? .eur,
                transactionID: nil, idempotencyKey: key,
                error: MPOSError.gatewayRefused.withMessage("The gateway answered \(status): \(body.description)"),
                merchantName: merchant, date: now)
        case nil:
            // Unknown: the journal keeps it; asking again resumes it, the next login finishes it.
            followUpsMayBeUnfinished = true
            emit(.completed(.failed))
            let resume = original == nil
                ? "the next login finishes it"
                : "asking for the same \(operation) again resumes it under the same idempotency key (never a second one), and the next login finishes it otherwise"
            return PaymentResult(
                status: .failed, kind: kind, requestedAmount: amount ?? 0, approvedAmount: 0, currency: currency ?? .eur,
                idempotencyKey: key,
                error: MPOSError.gatewayUnreachable.withMessage(
                    "The gateway could not be reached to learn whether the \(operation) was made: \(resume)."),
                merchantName: merchant, date: now)
        }
    }

    /// The journal's unfinished `operation` on `original` for `amount`, left by a call that
    /// could not learn its outcome.
    private func unfinishedFollowUp(_ operation: String, of original: TransactionID, amount: Int64?) throws(MPOSError)
        -> JournalEntry?
    {
        try journal.unfinished().first {
            $0.operation == operation && $0.originalTransactionID == original.rawValue && $0.amount == amount
                && $0.state == .authorizing
        }
    }

    /// Takes the reader's messages on the terminal's own executor: each one resumes this
    /// loop on the actor, instead of waking a task elsewhere that then hops onto the actor.
    /// The loop holds the terminal until the link closes or ``disconnect()`` cancels it.
    private func listen(to link: ReaderConnection) async {
        for await message in link.events { readerSaid(message) }
        readerClosed(link)
    }

    private func readerSaid(_ message: ReaderMessage) {
        if case .battery(let status) = message { noteBattery(status) }
        if let inbox {
            inbox.yield(.reader(message))
            return
        }
        switch message {
        case .cardEvent(let event): emit(.card(event))
        case .statusReport(let report):
            emit(.readerStatus(status: report.status, message: report.message, cancelAllowed: report.cancelAllowed))
        default: break
        }
    }

    private func readerClosed(_ link: ReaderConnection) {
        guard connection === link else { return }
        connection = nil
        info = nil
        inbox?.yield(.readerLost)
        emit(.readerConnection(connected: false, info: nil))
        linkDropped()
    }

    func emit(_ event: TerminalEvent) {
        eventsSink.yield(event)
        for (filter, handler) in eventHandlers where filter.contains(event.category) { handler(event) }
        subscribers.yield(event)
    }
}
