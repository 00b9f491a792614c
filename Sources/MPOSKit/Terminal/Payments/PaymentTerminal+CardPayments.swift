import Foundation
import GatewayAPI
import MPOSCore
import ReaderLink

// Card payments: every operation that reads a card runs the same journaled, idempotent flow
// (journal first, lookup by key, reversal of what the card did not complete). Its logic is
// the pure `PaymentEngine`; the terminal runs the effects it returns.
extension PaymentTerminal {
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

    /// Reserves the amount on the card (reader and gateway, as ``sale(_:)``); the money
    /// moves when ``capture(transactionID:amount:)`` captures it.
    ///
    /// ```swift
    /// let hold = try await terminal.authorize(PaymentParameters(amount: 50_00, currency: .eur))
    /// let capture = try await terminal.capture(transactionID: hold.transactionID!, amount: 42_00)
    /// ```
    ///
    /// - Returns: a result of kind ``TransactionKind/authorization`` for every outcome reached.
    /// - Throws: what ``sale(_:)`` throws.
    public func authorize(_ parameters: PaymentParameters) async throws(MPOSError) -> PaymentResult {
        try await runCard(parameters, kind: .authorization)
    }

    /// Reserves an estimated amount (hotel, car hire) on the card; captured later, for the
    /// estimate or less, with ``capture(transactionID:amount:)``.
    ///
    /// - Returns: a result of kind ``TransactionKind/preAuthorization``.
    /// - Throws: what ``sale(_:)`` throws.
    public func preAuthorize(_ parameters: PaymentParameters) async throws(MPOSError) -> PaymentResult {
        try await runCard(parameters, kind: .preAuthorization)
    }

    /// Credits the presented card with no earlier sale to refer to (the card is read as for a
    /// sale). To refund a sale, use ``refund(transactionID:amount:)``.
    ///
    /// - Returns: a result of kind ``TransactionKind/refund``.
    /// - Throws: what ``sale(_:)`` throws.
    public func refundUnreferenced(_ parameters: PaymentParameters) async throws(MPOSError) -> PaymentResult {
        try await runCard(parameters, kind: .refundUnreferenced)
    }

    /// Takes a SEPA direct debit: the card is read to identify the customer's bank account and
    /// the gateway records the mandate. EUR only.
    ///
    /// - Parameter mandateReference: the merchant's mandate reference, 1...35 characters; the
    ///   gateway assigns one when nil.
    /// - Returns: a result of kind ``TransactionKind/sepa``.
    /// - Throws: ``MPOSError/invalidArgument`` for another currency or a bad mandate
    ///   reference (before any I/O), and what ``sale(_:)`` throws.
    public func sepaDirectDebit(_ parameters: PaymentParameters, mandateReference: String? = nil)
        async throws(MPOSError) -> PaymentResult
    {
        if let mandateReference, !(1...35).contains(mandateReference.count) {
            throw MPOSError.invalidArgument.withMessage(
                "The mandate reference has \(mandateReference.count) characters; 1 to 35 are allowed.")
        }
        return try await runCard(parameters, kind: .sepa, mandateReference: mandateReference)
    }

    /// Asks the reader to stop what it is doing, as Handpoint's `cancel` does: the running sale
    /// while the reader allows it (waiting for a card, application selection; never once the
    /// request has gone to the gateway), or else its barcode scanner (which then reports
    /// ``TerminalEvent/scannerDisabled``). With a networked terminal, sends it an
    /// `AbortRequest` for the running payment (see ``connectNetworkedTerminal(_:)``).
    ///
    /// - Returns: whether the reader stopped the payment or the scanner.
    /// - Throws: ``MPOSError/cancelDuringPINEntry`` while the cardholder is entering the PIN:
    ///   only the cardholder can cancel then.
    @discardableResult
    public func cancel() async throws(MPOSError) -> Bool { try await state.paymentDevice.cancel(on: self) }

    /// Asks the connected reader to stop the card payment in progress, when it said it may, or
    /// its scanner when no payment runs.
    func cancelOnReader() async throws(MPOSError) -> Bool {
        guard let connection = readerLink.connection else { return false }
        let transactionID: String?
        if let engine = payments.engine {
            if engine.isAtPINEntry { throw .cancelDuringPINEntry }
            guard engine.isCancelAllowed else { return false }
            transactionID = engine.readerTransactionID
        } else {
            // No payment: the reader stops its scanner if it is on.
            transactionID = nil
        }
        guard
            case .cancelResponse(let accepted, _) = try? await connection.request(
                .cancelRequest(transactionID: transactionID))
        else { return false }
        return accepted
    }

    /// Runs any card-present operation through the reader and the gateway with the sale's
    /// guarantees (journal first, lookup by key, reversal of what the card did not complete).
    /// `fixedKey` is the attempt's idempotency key when the caller derives it (Terminal API
    /// requests); a new one otherwise.
    func runCard(
        _ parameters: PaymentParameters, kind: CardOperation, mandateReference: String? = nil,
        key fixedKey: IdempotencyKey? = nil
    ) async throws(MPOSError) -> PaymentResult {
        let result = try await state.paymentDevice.takePayment(
            parameters, kind: kind, mandateReference: mandateReference, key: fixedKey, on: self)
        developerLog.record(result)
        return result
    }

    /// A card payment on the connected reader (``CardReaderDevice``).
    func runCardOnReader(
        _ parameters: PaymentParameters, kind: CardOperation, mandateReference: String? = nil,
        key fixedKey: IdempotencyKey? = nil
    ) async throws(MPOSError) -> PaymentResult {
        try parameters.validate()
        if parameters.tipOptions != nil, kind != .sale {
            throw MPOSError.invalidTipOptions.withMessage(
                "Only a sale offers the cardholder a tip, not a \(kind.rawValue).")
        }
        if kind == .sepa, parameters.currency != .eur {
            throw MPOSError.invalidArgument.withMessage(
                "A SEPA direct debit is in EUR, not \(parameters.currency.code).")
        }
        try state.begin(.cardPayment)
        defer { state.end(.cardPayment) }
        try await requireSession(offlineSale: kind == .sale && parameters.offlineAllowed)
        let device = try await checkDevice()
        guard let connection = readerLink.connection else { throw MPOSError.readerNotConnected }
        if !isInitialized, !state.isOfflineOnly {
            // The reader's first transaction registers it with the gateway's terminal management
            // (the TSM seed), and its deadlines then apply; a gateway without it does not stop the sale.
            _ = try? await initializeTerminal()
        }
        if let refusal = updateSettings.reader.refusal(reader: readerLink.info?.serialNumber, at: device.date)
        {
            throw refusal
        }
        if payments.cardAttemptsMayBeUnfinished, !state.isOfflineOnly {
            // An earlier attempt whose outcome stayed unknown (the gateway out of reach) may
            // stand approved at the gateway although its card declined: reverse it before
            // the customer presents a card again, not at the next login. One try each, so a
            // gateway still down does not hold the new payment up; what is left stays for later.
            _ = try? await finishUnfinished(cardAttemptsOnly: true, retry: .oneLookup)
        }
        let key = fixedKey ?? IdempotencyKey()
        let readerID = "sdk-" + key.rawValue.prefix(8)
        let (events, eventsInbox) = AsyncStream.makeStream(of: PaymentEngine.Event.self)
        payments.inbox = eventsInbox
        payments.outcomeJournalFailure = nil
        defer {
            payments.inbox = nil
            payments.engine = nil
            eventsInbox.finish()
        }
        payments.engine = PaymentEngine(
            parameters: parameters, kind: kind, key: key, readerTransactionID: String(readerID),
            merchantName: await client.merchant?.name, now: Date(),
            retry: parameters.offlineAllowed ? .offlineSale : .standard)
        payments.engine?.mandateReference = mandateReference
        payments.engine?.reader = readerLink.info.map { PaymentReader($0, channel: updateSettings.channel) }
        if let model = readerLink.info?.model, let terminal = readerLink.catalogue?.terminal(model: model) {
            payments.engine?.blacklist = terminal.blacklist
        }
        if parameters.offlineAllowed { payments.engine?.offlineRefusal = await offlineRefusal(parameters, device: device) }
        // Offline-only, a sale over a limit cannot go anywhere: refused before the card is read.
        if state.isOfflineOnly, let refusal = payments.engine?.offlineRefusal { throw refusal }
        eventsInbox.yield(.start)
        var pending = events.makeAsyncIterator()
        while let event = await pending.next() {
            guard var current = payments.engine else { break }
            let effects = current.handle(event)
            payments.engine = current
            for effect in effects {
                if let result = try await perform(effect, connection: connection, inbox: eventsInbox) {
                    if current.promptedForCard || current.declinedBeforeCardPrompt,
                        let serial = readerLink.info?.serialNumber
                    {
                        updateSettings.troubles.paymentEnded(
                            declinedBeforeCardPrompt: current.declinedBeforeCardPrompt, reader: serial)
                    }
                    // The gateway found the reader past a deadline the terminal did not know of
                    // (an update published since it last asked): the next payment asks first.
                    if result.error == .updateRequired { updateSettings.reader.forget() }
                    // What the reader said after the outcome, already queued (the card taken out
                    // of a chip reader), reaches the app rather than an engine that has finished.
                    payments.inbox = nil
                    eventsInbox.finish()
                    while let late = await pending.next() {
                        if case .reader(let message) = late { readerSaid(message) }
                    }
                    return await keepingSignature(result)
                }
            }
        }
        throw MPOSError.readerLinkFailed.withMessage("The \(kind.rawValue) ended without an outcome.")
    }

    /// `result`, its pad signature stored at the gateway with the transaction when it has
    /// one. A failed upload leaves the payment as it stands: ``PaymentResult/signatureStored``
    /// says so and ``Receipts/storeSignature(_:transactionID:)`` sends it again.
    private func keepingSignature(_ result: PaymentResult) async -> PaymentResult {
        guard result.status == .approved, let signature = result.signature, let id = result.transactionID else {
            return result
        }
        var result = result
        result.signatureStored = (try? await receipts.storeSignature(signature, transactionID: id)) != nil
        return result
    }

    // MARK: - Running the engine

    private func perform(
        _ effect: PaymentEngine.Effect, connection: ReaderConnection,
        inbox: AsyncStream<PaymentEngine.Event>.Continuation
    ) async throws(MPOSError) -> PaymentResult? {
        switch effect {
        case .journal(var entry):
            entry.updatedAt = Date()
            guard entry.outcome != nil else {
                // Queued: the reader exchange goes on while SQLite syncs. The attempt's first
                // record is on disk before the gateway request leaves (see `settleJournal`).
                payments.journal.enqueue(entry, durable: entry.mustBeDurable)
                return nil
            }
            // An outcome: written and synced now (after what is queued), before the app hears
            // of it. If it still fails after retries the payment goes on (the gateway knows the
            // outcome, and the attempt is looked up by key at the next start), and the app is told.
            if let failure = await writeOutcome(entry) {
                payments.outcomeJournalFailure = failure
                payments.unwrittenOutcomes.append(entry)
                payments.cardAttemptsMayBeUnfinished = true
                emit(.journalWriteFailed(failure))
            }
        case .sendToReader(let message):
            do {
                _ = try await connection.request(message)
            } catch {
                if case .startTransaction = message {
                    inbox.yield(
                        .readerRefused(
                            MPOSError.readerLinkFailed.withMessage("The reader refused to start: \(error).")))
                } else if case .rejected = error {
                    // A late answer (a verdict after the reader timed out): the outcome follows.
                } else {
                    inbox.yield(.readerLost)
                }
            }
        case .authorize(let request, let key):
            try await settleJournal(key, connection: connection)
            if state.isOfflineOnly {
                // No session to send it with: the gateway never sees this attempt.
                inbox.yield(.gatewayUnreachable)
                return nil
            }
            do {
                let answer: GatewayAnswer
                if payments.engine?.kind == .sepa {
                    answer = try await client.send(
                        GatewayRoutes.sepaPayment,
                        body: request.sepaPaymentRequest(mandateReference: payments.engine?.mandateReference),
                        key: key)
                } else {
                    answer = try await client.send(GatewayRoutes.authorizeCard, body: request, key: key)
                }
                inbox.yield(.gatewayAnswered(answer))
            } catch {
                inbox.yield(.gatewayUnreachable)
            }
        case .lookup(let key, let delay):
            if state.isOfflineOnly {
                inbox.yield(.lookedUp(.notFound))
                return nil
            }
            if delay > .zero { try? await clock.sleep(for: delay) }
            inbox.yield(.lookedUp(await client.lookup(key)))
        case .reverse(let id, let key, let reason):
            inbox.yield(.reversalFinished(await reverse(id, key: key, reason: reason)))
        case .emit(let event):
            // Offline-only, nothing goes to the gateway: it is neither asked nor looked up.
            if state.isOfflineOnly, case .recovering = event { return nil }
            if state.isOfflineOnly, case .authorizing = event { return nil }
            emit(event)
        case .askApplication(let candidates):
            let handler = payments.applicationHandler
            // Unstructured: the app's choice arrives while the engine loop goes on taking reader events.
            Task {
                let index: Int? = if let handler { await handler(candidates) } else { 0 }
                inbox.yield(.applicationChosen(index.flatMap { UInt8(exactly: $0) }))
            }
        case .askSignature(let request):
            let handler = payments.signatureHandler
            let clock = self.clock
            let timeout = payments.signatureTimeout
            // Unstructured: the merchant decides while the engine loop goes on taking reader events.
            Task {
                if let handler {
                    let decision = await Deadline.first({ await handler(request) }, orNilAfter: timeout, on: clock)
                    inbox.yield(.signatureDecided(decision))
                } else {
                    // Nobody can judge the signature: it is not accepted by default; the
                    // timeout passes as if the merchant never answered.
                    try? await clock.sleep(for: timeout)
                    inbox.yield(.signatureDecided(nil))
                }
            }
        case .storeOffline(let request, let key):
            inbox.yield(.offlineStored(await storeOffline(request, key: key)))
        case .finish(var result):
            if payments.engine?.leavesJournalUnfinished == true {
                payments.cardAttemptsMayBeUnfinished = true
            }
            result.journalError = payments.outcomeJournalFailure
            return result
        }
        return nil
    }

    /// Waits until the attempt's first record is on disk before its gateway request leaves
    /// (usually it is: it was queued when the reader started). Without it nothing may leave:
    /// the card is told to decline (it then completes with a refusal) and the operation fails
    /// with the journal's error. The unsynced updates since only save recovery a lookup, so
    /// their failure does not stop the payment.
    /// Writes and syncs an outcome, trying three times; the last failure when none succeeded.
    private func writeOutcome(_ entry: JournalEntry) async -> MPOSError? {
        var failure: MPOSError?
        for _ in 0..<3 {
            do {
                try await payments.journal.write(entry)
                return nil
            } catch {
                failure = error
            }
        }
        return failure
    }

    private func settleJournal(_ key: IdempotencyKey, connection: ReaderConnection) async throws(MPOSError) {
        let failures = await payments.journal.settleDurable()
        guard let failure = failures.first(where: { $0.entry.key == key && $0.durable }) else { return }
        if let id = failure.entry.readerTransactionID {
            _ = try? await connection.request(
                .hostResponse(
                    HostResponse(
                        transactionID: id, approved: false, authorizationResponseCode: "")))
        }
        throw failure.error
    }
}
