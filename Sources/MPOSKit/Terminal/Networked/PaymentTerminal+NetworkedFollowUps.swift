import Foundation
import MPOSCore
import TerminalAPI

// Networked terminals: reversals (refund and void) of the terminal's payments, and settling
// what the journal holds unfinished with the terminal.
extension PaymentTerminal {
    /// Reverses (part of) a payment the networked terminal made: a `ReversalRequest` for its
    /// `POITransactionID`, with `ReversedAmount` for a part (as Adyen refunds a part; a whole
    /// reversal is a void before the acquirer settles and a refund after, as the terminal decides).
    ///
    /// - Throws: ``MPOSError/notFound`` when the journal holds no payment with `id` made with a
    ///   networked terminal (its currency and time are not known); ``MPOSError/terminalBusy``,
    ///   ``MPOSError/journalFailed``.
    func reverseOnNetworkedTerminal(_ id: TransactionID, amount: Int64?, kind: TransactionKind)
        async throws(MPOSError)
        -> PaymentResult
    {
        guard !state.isBusy else { throw MPOSError.terminalBusy }
        guard let link = state.networked?.link else { throw MPOSError.readerNotConnected }
        guard let original = try payments.journal.networkedPayment(transactionID: id) else {
            throw MPOSError.notFound.withMessage(
                "No payment \(id) made with a networked terminal is in the journal: its currency and time are not known."
            )
        }
        try state.begin(.networkedFollowUp)
        defer { state.end(.networkedFollowUp) }
        let serviceID = NexoLink.newServiceID()
        let now = Date()
        var attempt = NetworkedAttempt(
            key: NexoSession.key(
                for: NexoSession.Reference(saleID: link.terminal.saleID, serviceID: serviceID)),
            saleID: link.terminal.saleID, serviceID: serviceID, poiID: link.terminal.poiID,
            operation: .reversal,
            amount: amount, currency: original.currency, originalTransactionID: id, now: now)
        try await payments.journal.write(attempt)
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
        emit(.authorizing)
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
                    reversal.reversedAmount.flatMap { try? Int64($0.minorUnits(exponent: exponent)) }
                    ?? requested
                result.transactionID = reversal.poiData.flatMap {
                    TransactionID(rawValue: $0.poiTransactionID.transactionID)
                }
            } else {
                result.error = NexoOutcome.error(for: reversal.response)
            }
            attempt.finish(with: result)
            try await payments.journal.write(attempt)
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
        emit(.completed(result.status))
        return result
    }

    private static func reversalUnknown(_ reason: String) -> MPOSError {
        MPOSError.networkedTerminalOutcomeUnknown.withMessage(
            "The terminal's answer to the reversal was lost (\(reason)); check the payment on the terminal before "
                + "reversing it again.")
    }

    // MARK: - Recovery

    /// Settles the journal's unfinished payments with the connected networked terminal, one
    /// TransactionStatus request each; reversals whose answer was lost are reported, not asked.
    func settleNetworkedAttempts() async throws(MPOSError) -> [RecoveredAttempt] {
        guard let link = state.networked?.link else { return [] }
        var report: [RecoveredAttempt] = []
        for var attempt in try payments.journal.unfinishedNetworkedAttempts(poiID: link.terminal.poiID) {
            guard attempt.operation != .reversal else {
                report.append(
                    RecoveredAttempt(
                        attempt: JournaledAttempt(attempt), finding: .unknown, resolution: .leftForLater))
                continue
            }
            let finding: RecoveredAttempt.Finding
            switch await settle(attempt, link: link, deadline: .zero) {
            case .settled(let response):
                let result = NexoOutcome.result(
                    of: response, kind: attempt.operation == .sale ? .sale : .refund,
                    requestedAmount: attempt.amount ?? 0,
                    currency: attempt.currency, idempotencyKey: attempt.key)
                attempt.finish(with: result)
                finding = .outcome(result.status)
            case .notFound:
                attempt.state = .finished
                attempt.outcome = .failed
                finding = .notAtGateway
            case .giveUp, .ask:
                report.append(
                    RecoveredAttempt(
                        attempt: JournaledAttempt(attempt), finding: .unknown, resolution: .leftForLater))
                continue
            }
            try await payments.journal.write(attempt)
            report.append(
                RecoveredAttempt(attempt: JournaledAttempt(attempt), finding: finding, resolution: .recorded))
        }
        return report
    }
}

extension JournaledAttempt {
    /// A networked terminal's attempt as the journal holds it (``isCardOperation`` is true for
    /// its payments: a card was read, by the terminal).
    init(_ attempt: NetworkedAttempt) {
        idempotencyKey = attempt.key
        operation = attempt.operation.rawValue
        isCardOperation = attempt.operation != .reversal
        amount = attempt.amount
        currency = attempt.currency
        transactionID = attempt.transactionID
        originalTransactionID = attempt.originalTransactionID
        outcome = attempt.outcome
        isFinished = attempt.state == .finished
        startedAt = attempt.createdAt
    }
}
