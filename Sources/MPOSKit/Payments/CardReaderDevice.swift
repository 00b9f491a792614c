import EMV
import Foundation
import GatewayAPI
import MPOSCore
import ReaderLink

/// A ReaderLink card reader: card payments run the journaled ``PaymentEngine`` flow over the
/// reader link and the gateway (journal first, lookup by key, reversal of what the card did not
/// complete); refunds and voids are gateway requests that need no card. It asks the parts what
/// they say of the payment before the engine starts, then carries out the engine's effects.
struct CardReaderDevice: PaymentDevice {
    func reverse(
        _ transactionID: TransactionID, amount: Int64?, kind: ReversalKind,
        on terminal: isolated PaymentTerminal
    ) async throws(MPOSError) -> PaymentResult {
        // A gateway request each: the card is not needed.
        switch kind {
        case .refund:
            try await terminal.followUp(
                .refund, kind: .refund, endpoint: GatewayRoutes.refund,
                original: transactionID, amount: amount, body: RefundRequest(amount: amount))
        case .void:
            try await terminal.followUp(
                .void, kind: .saleVoid, endpoint: GatewayRoutes.void,
                original: transactionID, amount: nil, body: VoidRequest())
        }
    }

    /// Asks the connected reader to stop the card payment in progress, when it said it may, or
    /// its scanner when no payment runs.
    func cancel(on terminal: isolated PaymentTerminal) async throws(MPOSError) -> Bool {
        guard let connection = await terminal.reader.link else { return false }
        let transactionID: String?
        if let engine = terminal.payments.engine {
            if engine.isAtPINEntry { throw .cancelDuringPINEntry }
            guard engine.isCancelAllowed else { return false }
            transactionID = engine.readerTransactionID
        } else {
            // No payment: the reader stops its scanner if it is on.
            transactionID = nil
        }
        // A reader that does not answer stopped nothing, which is what false says.
        guard
            case .cancelResponse(let accepted, _) = try? await connection.request(
                .cancelRequest(transactionID: transactionID))
        else { return false }
        return accepted
    }

    /// A card payment on the connected reader: the device checks, what the parts say (the
    /// reader's update deadlines, the offline limits, the catalogue's blacklist), then the
    /// journaled ``PaymentEngine`` flow, whose effects ``perform(_:connection:inbox:on:)`` carries out.
    func takePayment(
        _ parameters: PaymentParameters, kind: CardOperation, mandateReference: String?, key fixedKey: IdempotencyKey?,
        on terminal: isolated PaymentTerminal
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
        let hold = try terminal.gate.begin(.cardPayment)
        defer { terminal.gate.end(hold) }
        try await terminal.requireSession(offlineSale: kind == .sale && parameters.offlineAllowed)
        let device = await terminal.security.deviceState()
        if let refusal = terminal.security.refusal(device) { throw refusal }
        guard let connection = await terminal.reader.link else { throw MPOSError.readerNotConnected }
        if await !terminal.updates.isInitialized, !terminal.state.isOfflineOnly {
            // The reader's first transaction registers it with the gateway's terminal management
            // (the TSM seed), and its deadlines then apply; a gateway without it does not stop the sale.
            _ = try? await terminal.updates.check()
        }
        if let refusal = await terminal.updates.refusal(at: device.date) { throw refusal }
        if await terminal.recovery.cardAttemptsMayBeUnfinished, !terminal.state.isOfflineOnly {
            // An earlier attempt whose outcome stayed unknown (the gateway out of reach) may
            // stand approved at the gateway although its card declined: reverse it before
            // the customer presents a card again, not at the next login. One try each, so a
            // gateway still down does not hold the new payment up; what is left stays for later.
            _ = try? await terminal.recovery.finishUnfinished(cardAttemptsOnly: true, retry: .oneLookup)
        }
        let key = fixedKey ?? IdempotencyKey()
        let readerID = "sdk-" + key.rawValue.prefix(8)
        let (events, eventsInbox) = AsyncStream.makeStream(of: PaymentEngine.Event.self)
        terminal.payments.inbox = eventsInbox
        terminal.payments.outcomeJournalFailure = nil
        let route = await terminal.reader.routeMessages { news in
            switch news {
            case .message(let message): eventsInbox.yield(.reader(message))
            case .lost: eventsInbox.yield(.readerLost)
            }
        }
        defer {
            terminal.payments.inbox = nil
            terminal.payments.engine = nil
            eventsInbox.finish()
        }
        do throws(MPOSError) {
            let readerInfo = await terminal.reader.info
            let channel = await terminal.updates.channel
            let blacklist = await terminal.reader.blacklist
            terminal.payments.engine = PaymentEngine(
                parameters: parameters, kind: kind, key: key, readerTransactionID: String(readerID),
                merchantName: await terminal.client.merchant?.name, now: Date(),
                retry: parameters.offlineAllowed ? .offlineSale : .standard)
            terminal.payments.engine?.mandateReference = mandateReference
            terminal.payments.engine?.reader = readerInfo.map { PaymentReader($0, channel: channel) }
            terminal.payments.engine?.blacklist = blacklist
            if parameters.offlineAllowed {
                terminal.payments.engine?.offlineRefusal =
                    if let refusal = terminal.security.offlineRefusal(device) { refusal } else {
                        await terminal.offline.refusal(parameters, at: device.date)
                    }
            }
            // Offline-only, a sale over a limit cannot go anywhere: refused before the card is read.
            if terminal.state.isOfflineOnly, let refusal = terminal.payments.engine?.offlineRefusal { throw refusal }
            eventsInbox.yield(.start)
            var pending = events.makeAsyncIterator()
            while let event = await pending.next() {
                guard var current = terminal.payments.engine else { break }
                let effects = current.handle(event)
                terminal.payments.engine = current
                for effect in effects {
                    if let result = try await perform(effect, connection: connection, inbox: eventsInbox, on: terminal) {
                        if current.promptedForCard || current.declinedBeforeCardPrompt, let serial = readerInfo?.serialNumber {
                            await terminal.updates.paymentEnded(declinedBeforeCardPrompt: current.declinedBeforeCardPrompt, reader: serial)
                        }
                        // The gateway found the reader past a deadline the terminal did not know of
                        // (an update published since it last asked): the next payment asks first.
                        if result.error == .updateRequired { await terminal.updates.forgetReaderStatus() }
                        // What the reader said after the outcome, already queued (the card taken out
                        // of a chip reader), reaches the app rather than an engine that has finished.
                        await terminal.reader.endRoute(route)
                        terminal.payments.inbox = nil
                        eventsInbox.finish()
                        while let late = await pending.next() {
                            if case .reader(let message) = late { CardReaderLink.tellApp(message, hub: terminal.hub) }
                        }
                        return await keepingSignature(result, on: terminal)
                    }
                }
            }
            throw MPOSError.readerLinkFailed.withMessage("The \(kind.rawValue) ended without an outcome.")
        } catch {
            // The payment ends without an outcome: the reader's messages go to the app again.
            await terminal.reader.endRoute(route)
            throw error
        }
    }

    /// `result`, its pad signature stored at the gateway with the transaction when it has
    /// one. A failed upload leaves the payment as it stands: ``PaymentResult/signatureStored``
    /// says so and ``Receipts/storeSignature(_:transactionID:)`` sends it again.
    private func keepingSignature(_ result: PaymentResult, on terminal: isolated PaymentTerminal) async -> PaymentResult {
        guard result.status == .approved, let signature = result.signature, let id = result.transactionID else {
            return result
        }
        var result = result
        // A failed upload is not lost: the flag says so, and the app sends it again.
        result.signatureStored = (try? await terminal.receipts.storeSignature(signature, transactionID: id)) != nil
        return result
    }

    // MARK: - Running the engine

    private func perform(
        _ effect: PaymentEngine.Effect, connection: ReaderConnection,
        inbox: AsyncStream<PaymentEngine.Event>.Continuation, on terminal: isolated PaymentTerminal
    ) async throws(MPOSError) -> PaymentResult? {
        switch effect {
        case .journal(var entry):
            entry.updatedAt = Date()
            guard entry.outcome != nil else {
                // Queued: the reader exchange goes on while SQLite syncs. The attempt's first
                // record is on disk before the gateway request leaves (see `settleJournal`).
                terminal.payments.journal.enqueue(entry, durable: entry.mustBeDurable)
                return nil
            }
            // An outcome: written and synced now (after what is queued), before the app hears
            // of it. If it still fails after retries the payment goes on (the gateway knows the
            // outcome, and the attempt is looked up by key at the next start), and the app is told.
            if let failure = await Self.writeOutcome(entry, to: terminal.payments.journal) {
                terminal.payments.outcomeJournalFailure = failure
                await terminal.recovery.outcomeUnwritten(entry)
                terminal.hub.emit(.journalWriteFailed(failure))
            }
        case .sendToReader(let message):
            do {
                _ = try await connection.request(message)
            } catch {
                if case .startTransaction = message {
                    inbox.yield(
                        .readerRefused(
                            MPOSError.readerLinkFailed.withMessage("The terminal.reader refused to start: \(error).")))
                } else if case .rejected = error {
                    // A late answer (a verdict after the reader timed out): the outcome follows.
                } else {
                    inbox.yield(.readerLost)
                }
            }
        case .authorize(let request, let key):
            try await Self.settleJournal(key, connection: connection, journal: terminal.payments.journal)
            if terminal.state.isOfflineOnly {
                // No session to send it with: the gateway never sees this attempt.
                inbox.yield(.gatewayUnreachable)
                return nil
            }
            do {
                let answer: GatewayAnswer
                if terminal.payments.engine?.kind == .sepa {
                    answer = try await terminal.client.send(
                        GatewayRoutes.sepaPayment,
                        body: request.sepaPaymentRequest(mandateReference: terminal.payments.engine?.mandateReference),
                        key: key)
                } else {
                    answer = try await terminal.client.send(GatewayRoutes.authorizeCard, body: request, key: key)
                }
                inbox.yield(.gatewayAnswered(answer))
            } catch {
                inbox.yield(.gatewayUnreachable)
            }
        case .lookup(let key, let delay):
            if terminal.state.isOfflineOnly {
                inbox.yield(.lookedUp(.notFound))
                return nil
            }
            // A cancelled pause looks up at once, which is what a cancel wants.
            if delay > .zero { try? await terminal.clock.sleep(for: delay) }
            inbox.yield(.lookedUp(await terminal.client.lookup(key)))
        case .reverse(let id, let key, let reason):
            inbox.yield(.reversalFinished(await terminal.client.reverse(id, key: key, reason: reason)))
        case .emit(let event):
            // Offline-only, nothing goes to the gateway: it is neither asked nor looked up.
            if terminal.state.isOfflineOnly, case .recovering = event { return nil }
            if terminal.state.isOfflineOnly, case .authorizing = event { return nil }
            terminal.hub.emit(event)
        case .askApplication(let candidates):
            let handler = terminal.payments.applicationHandler
            // Unstructured: the app's choice arrives while the engine loop goes on taking reader events.
            Task {
                let index: Int? = if let handler { await handler(candidates) } else { 0 }
                inbox.yield(.applicationChosen(index.flatMap { UInt8(exactly: $0) }))
            }
        case .askSignature(let request):
            let handler = terminal.payments.signatureHandler
            let clock = terminal.clock
            let timeout = terminal.payments.signatureTimeout
            // Unstructured: the merchant decides while the engine loop goes on taking reader events.
            Task {
                if let handler {
                    let decision = await Deadline.first({ await handler(request) }, orNilAfter: timeout, on: clock)
                    inbox.yield(.signatureDecided(decision))
                } else {
                    // Nobody can judge the signature: it is not accepted by default; the
                    // timeout passes as if the merchant never answered.
                    try? await clock.sleep(for: timeout)  // cancelled only with the payment, which then needs no decision
                    inbox.yield(.signatureDecided(nil))
                }
            }
        case .storeOffline(let request, let key):
            inbox.yield(.offlineStored(await terminal.offline.store(request, key: key)))
        case .finish(var result):
            if terminal.payments.engine?.leavesJournalUnfinished == true {
                await terminal.recovery.cardAttemptLeftUnfinished()
            }
            result.journalError = terminal.payments.outcomeJournalFailure
            return result
        }
        return nil
    }

    /// Writes and syncs an outcome, trying three times; the last failure when none succeeded.
    private static func writeOutcome(_ entry: JournalEntry, to journal: PaymentJournal) async -> MPOSError? {
        var failure: MPOSError?
        for _ in 0..<3 {
            do {
                try await journal.write(entry)
                return nil
            } catch {
                failure = error
            }
        }
        return failure
    }

    /// Waits until the attempt's first record is on disk before its gateway request leaves
    /// (usually it is: it was queued when the reader started). Without it nothing may leave:
    /// the card is told to decline (it then completes with a refusal) and the operation fails
    /// with the journal's error. The unsynced updates since only save recovery a lookup, so
    /// their failure does not stop the payment.
    private static func settleJournal(_ key: IdempotencyKey, connection: ReaderConnection, journal: PaymentJournal)
        async throws(MPOSError)
    {
        let failures = await journal.settleDurable()
        guard let failure = failures.first(where: { $0.entry.key == key && $0.durable }) else { return }
        if let id = failure.entry.readerTransactionID {
            // The card is told to decline so that it completes; the journal's error is what is thrown.
            _ = try? await connection.request(
                .hostResponse(
                    HostResponse(
                        transactionID: id, approved: false, authorizationResponseCode: "")))
        }
        throw failure.error
    }
}
