import Foundation
import GatewayAPI
import MPOSCore
import Synchronization
import TerminalAPI

/// A networked Terminal API terminal: payments are Payment requests, refunds and voids
/// Reversal requests, and cancel an Abort, each journaled first and settled with
/// TransactionStatus when its answer is lost. The terminal reads the card and has its own
/// acquirer; the journal is the terminal's, the link and the payment in flight the device's.
final class NetworkedTerminalDevice: PaymentDevice {
    let link: NexoLink
    let events: TerminalEvents
    let clock: any Clock<Duration>
    /// The payment request in flight, which ``cancel(on:)`` aborts.
    private let running = Mutex<NetworkedAttempt?>(nil)

    init(link: NexoLink, events: TerminalEvents, clock: any Clock<Duration>) {
        self.link = link
        self.events = events
        self.clock = clock
    }

    /// A sale or unreferenced refund on the networked terminal: journaled, sent once, and
    /// settled with TransactionStatus when its answer is lost.
    func takePayment(
        _ parameters: PaymentParameters, kind: CardOperation, mandateReference: String?, key: IdempotencyKey?,
        on terminal: isolated PaymentTerminal
    ) async throws(MPOSError) -> PaymentResult {
        if parameters.tipOptions != nil {
            // Its own software prompts (or not) for a tip: the options would go unused.
            throw MPOSError.invalidTipOptions.withMessage("A networked terminal does not take tip options.")
        }
        try parameters.validate()
        let operation: NetworkedAttempt.Operation
        switch kind {
        case .sale: operation = .sale
        case .refundUnreferenced: operation = .refundUnreferenced
        default:
            throw MPOSError.invalidArgument.withMessage(
                "A networked terminal takes sales and unreferenced refunds; \(kind.rawValue) is not offered.")
        }
        let hold = try terminal.gate.begin(.networkedPayment)
        defer {
            terminal.gate.end(hold)
            running.withLock { $0 = nil }
        }
        let serviceID = NexoLink.newServiceID()
        let reference = NexoSession.Reference(saleID: link.terminal.saleID, serviceID: serviceID)
        let now = Date()
        var attempt = NetworkedAttempt(
            key: NexoSession.key(for: reference), saleID: reference.saleID, serviceID: serviceID,
            poiID: link.terminal.poiID, operation: operation, amount: parameters.amount,
            currency: parameters.currency,
            now: now)
        // On disk before the request leaves: a lost answer is settled from here, never sent again.
        try await terminal.payments.journal.write(attempt)
        running.withLock { $0 = attempt }
        let request = SaleToPOIRequest(
            messageHeader: link.header(.payment, serviceID: serviceID),
            paymentRequest: PaymentRequest(
                saleData: SaleData(
                    saleTransactionID: TransactionIdentification(
                        transactionID: parameters.externalID ?? serviceID, timeStamp: NexoTimestamp(now))),
                paymentTransaction: PaymentTransaction(
                    amountsReq: AmountsReq(
                        currency: parameters.currency.code,
                        requestedAmount: NexoAmount(
                            minorUnits: Int(parameters.amount), exponent: parameters.currency.minorUnits ?? 2)
                    )),
                paymentData: operation == .refundUnreferenced ? PaymentData(paymentType: .refund) : nil))
        terminal.hub.emit(.authorizing)
        let step: StatusPolling.Step
        var settledByStatus = false
        let answer = await link.send(request)
        if case .response(let message) = answer, let payment = message.paymentResponse {
            step = .settled(payment)
        } else if case .unauthenticated(let reason) = answer {
            // Not to be believed, and asking the same way gets the same: left to recovery.
            step = .giveUp(reason)
        } else {
            settledByStatus = true
            step = await settle(attempt)
        }
        let kindReported: TransactionKind = operation == .sale ? .sale : .refund
        var result: PaymentResult
        switch step {
        case .settled(let response):
            result = NexoOutcome.result(
                of: response, kind: kindReported, requestedAmount: parameters.amount,
                currency: parameters.currency,
                idempotencyKey: attempt.key)
            result.recovered = settledByStatus
            attempt.finish(with: result)
        case .notFound:
            result = PaymentResult(
                status: .failed, kind: kindReported, requestedAmount: parameters.amount, approvedAmount: 0,
                currency: parameters.currency, idempotencyKey: attempt.key, recovered: true,
                error: MPOSError.networkedTerminalRefused.withMessage(
                    "The terminal's answer was lost, and it reports the payment never happened: nothing was charged."
                ),
                date: now)
            attempt.finish(with: result)
        case .giveUp(let reason):
            result = Self.unknownOutcome(
                parameters, kind: kindReported, key: attempt.key, reason: reason, date: now)
        case .ask:
            result = Self.unknownOutcome(
                parameters, kind: kindReported, key: attempt.key, reason: "no answer", date: now)
        }
        if attempt.state == .finished {
            do { try await terminal.payments.journal.write(attempt) } catch {
                result.journalError = error
                terminal.hub.emit(.journalWriteFailed(error))
            }
        }
        terminal.hub.emit(.completed(result.status))
        return result
    }

    /// The result of a payment whose outcome stays unknown: failed for now, the journal keeps it.
    private static func unknownOutcome(
        _ parameters: PaymentParameters, kind: TransactionKind, key: IdempotencyKey, reason: String,
        date: Date
    ) -> PaymentResult {
        PaymentResult(
            status: .failed, kind: kind, requestedAmount: parameters.amount, approvedAmount: 0,
            currency: parameters.currency, idempotencyKey: key,
            error: MPOSError.networkedTerminalOutcomeUnknown.withMessage(
                "The terminal's answer was lost and TransactionStatus could not learn the outcome (\(reason)); "
                    + "it is never sent again: the next connect or recoverUnfinishedAttempts() settles it."),
            date: date)
    }

    /// Asks the terminal for a payment's outcome with TransactionStatus until it is known, the
    /// terminal says it never happened, or the link's settlement deadline passes.
    func settle(_ attempt: NetworkedAttempt, deadline: Duration? = nil) async -> StatusPolling.Step {
        events.emit(.recovering)
        var polling = StatusPolling(deadline: deadline ?? link.terminal.settlementDeadline)
        var step = polling.start()
        while case .ask(let pause) = step {
            // A cancelled pause asks at once; the deadline still ends the polling.
            if pause > .zero { try? await clock.sleep(for: pause) }
            let request = SaleToPOIRequest(
                messageHeader: link.header(.transactionStatus, serviceID: NexoLink.newServiceID()),
                transactionStatusRequest: TransactionStatusRequest(
                    messageReference: MessageReference(
                        messageCategory: .payment, serviceID: attempt.serviceID, saleID: attempt.saleID)))
            step = polling.handle(StatusPolling.answer(await link.send(request)))
        }
        return step
    }

    /// Asks the networked terminal to abort the payment in flight (an `AbortRequest` naming
    /// its `MessageReference`). The payment's own answer then says whether it was aborted.
    ///
    /// - Returns: whether the terminal took the abort request.
    func cancel(on terminal: isolated PaymentTerminal) async throws(MPOSError) -> Bool {
        guard let running = running.withLock({ $0 }) else { return false }
        let abort = SaleToPOIRequest(
            messageHeader: link.header(.abort, serviceID: NexoLink.newServiceID()),
            abortRequest: AbortRequest(
                messageReference: MessageReference(
                    messageCategory: .payment, serviceID: running.serviceID, saleID: running.saleID),
                abortReason: "MerchantAbort"))
        if case .success = await link.post(abort) { return true }
        return false
    }

    /// Reverses (part of) a payment the networked terminal made: a `ReversalRequest` for its
    /// `POITransactionID`, with `ReversedAmount` for a part (as Adyen refunds a part; a whole
    /// reversal is a void before the acquirer settles and a refund after, as the terminal decides).
    ///
    /// - Throws: ``MPOSError/notFound`` when the journal holds no payment with `id` made with a
    ///   networked terminal (its currency and time are not known); ``MPOSError/terminalBusy``,
    ///   ``MPOSError/journalFailed``.
    func reverse(
        _ id: TransactionID, amount: Int64?, kind reversal: ReversalKind, on terminal: isolated PaymentTerminal
    ) async throws(MPOSError) -> PaymentResult {
        let kind: TransactionKind = reversal == .refund ? .refund : .saleVoid
        let hold = try terminal.gate.begin(.networkedFollowUp)
        defer { terminal.gate.end(hold) }
        guard let original = try terminal.payments.journal.networkedPayment(transactionID: id) else {
            throw MPOSError.notFound.withMessage(
                "No payment \(id) made with a networked terminal is in the journal: its currency and time are not known."
            )
        }
        let serviceID = NexoLink.newServiceID()
        let now = Date()
        var attempt = NetworkedAttempt(
            key: NexoSession.key(
                for: NexoSession.Reference(saleID: link.terminal.saleID, serviceID: serviceID)),
            saleID: link.terminal.saleID, serviceID: serviceID, poiID: link.terminal.poiID,
            operation: .reversal,
            amount: amount, currency: original.currency, originalTransactionID: id, now: now)
        try await terminal.payments.journal.write(attempt)
        let exponent = original.currency.minorUnits ?? 2
        let request = SaleToPOIRequest(
            messageHeader: link.header(.reversal, serviceID: serviceID),
            reversalRequest: ReversalRequest(
                originalPOITransaction: OriginalPOITransaction(
                    saleID: original.saleID, poiID: original.poiID,
                    poiTransactionID: TransactionIdentification(
                        transactionID: id.rawValue, timeStamp: NexoTimestamp(original.createdAt))),
                reversalReason: .merchantCancel,
                reversedAmount: amount.map { NexoAmount(minorUnits: Int($0), exponent: exponent) },
                // Adyen's partial refund names the refund's currency beside its amount.
                saleData: amount.map { _ in
                    SaleData(
                        saleTransactionID: TransactionIdentification(
                            transactionID: serviceID, timeStamp: NexoTimestamp(now)),
                        saleToAcquirerData: SaleToAcquirerData(fields: [
                            KeyValueField(name: "currency", value: original.currency.code)
                        ]))
                }))
        terminal.hub.emit(.authorizing)
        let requested = amount ?? original.amount ?? 0
        var result = PaymentResult(
            status: .failed, kind: kind, requestedAmount: requested, approvedAmount: 0,
            currency: original.currency,
            idempotencyKey: attempt.key, date: now)
        let answer = await link.send(request)
        if case .response(let message) = answer, let reversal = message.reversalResponse {
            result.status = NexoOutcome.status(of: reversal.response)
            if result.status == .approved {
                result.approvedAmount =
                    // An amount that does not convert is taken as the one asked for.
                    reversal.reversedAmount.flatMap { try? Int64($0.minorUnits(exponent: exponent)) }
                    ?? requested
                result.transactionID = reversal.poiData.flatMap {
                    TransactionID(rawValue: $0.poiTransactionID.transactionID)
                }
            } else {
                result.error = NexoOutcome.error(for: reversal.response)
            }
            attempt.finish(with: result)
            try await terminal.payments.journal.write(attempt)
        } else {
            // A reversal is not asked about with TransactionStatus: it stays in the journal
            // for the merchant to check, and is never sent again by itself.
            let reason: String =
                switch answer {
                case .lost(let reason), .unauthenticated(let reason): reason
                case .response: "the terminal answered with another message"
                }
            result.error = Self.reversalUnknown(reason)
        }
        terminal.hub.emit(.completed(result.status))
        return result
    }

    /// Settles the journal's unfinished payments with this terminal, one TransactionStatus
    /// request each; reversals whose answer was lost are reported, not asked.
    func settleUnfinished(in journal: PaymentJournal) async throws(MPOSError) -> [RecoveredAttempt] {
        var report: [RecoveredAttempt] = []
        for var attempt in try journal.unfinishedNetworkedAttempts(poiID: link.terminal.poiID) {
            guard attempt.operation != .reversal else {
                report.append(
                    RecoveredAttempt(attempt: JournaledAttempt(attempt), finding: .unknown, resolution: .leftForLater))
                continue
            }
            let finding: RecoveredAttempt.Finding
            switch await settle(attempt, deadline: .zero) {
            case .settled(let response):
                let result = NexoOutcome.result(
                    of: response, kind: attempt.operation == .sale ? .sale : .refund,
                    requestedAmount: attempt.amount ?? 0, currency: attempt.currency, idempotencyKey: attempt.key)
                attempt.finish(with: result)
                finding = .outcome(result.status)
            case .notFound:
                attempt.state = .finished
                attempt.outcome = .failed
                finding = .notAtGateway
            case .giveUp, .ask:
                report.append(
                    RecoveredAttempt(attempt: JournaledAttempt(attempt), finding: .unknown, resolution: .leftForLater))
                continue
            }
            try await journal.write(attempt)
            report.append(RecoveredAttempt(attempt: JournaledAttempt(attempt), finding: finding, resolution: .recorded))
        }
        return report
    }

    private static func reversalUnknown(_ reason: String) -> MPOSError {
        MPOSError.networkedTerminalOutcomeUnknown.withMessage(
            "The terminal's answer to the reversal was lost (\(reason)); check the payment on the terminal before "
                + "reversing it again.")
    }
}
