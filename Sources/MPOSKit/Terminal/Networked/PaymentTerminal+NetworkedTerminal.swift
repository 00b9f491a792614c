import Foundation
import MPOSCore
import TerminalAPI

/// The networked terminal a `PaymentTerminal` drives, and the payment it runs there.
struct NetworkedSession: Sendable {
    let link: NexoLink
    /// The payment request in flight, which ``PaymentTerminal/cancel()`` aborts.
    var running: NetworkedAttempt?
}

// Networked terminals: a terminal on the LAN runs the payment (its own card reader and
// acquirer); the SDK sends it Terminal API requests, journaled first, and settles a lost
// answer with TransactionStatus. No gateway login is needed for these operations.
extension PaymentTerminal {
    /// Drives `terminal` instead of a ReaderLink reader: ``sale(_:)`` and
    /// ``refundUnreferenced(_:)`` become Terminal API payments, ``refund(transactionID:amount:)``
    /// and ``void(transactionID:)`` reversals, and ``cancel()`` an abort, all answered as
    /// `PaymentResult`s. A connected reader is disconnected; ``disconnect()`` or
    /// ``ReaderTools/connect(transport:secret:)`` ends it. ``login()`` is not needed: the terminal
    /// has its own acquirer.
    ///
    /// Connecting first settles what the journal holds unfinished with this terminal (an
    /// answer lost by an earlier run), with one TransactionStatus request each.
    ///
    /// - Returns: one report per attempt found unfinished with this terminal (its POIID).
    /// - Throws: ``MPOSError/terminalBusy`` during an operation; ``MPOSError/journalFailed``.
    @discardableResult
    func connectNetworkedTerminal(_ terminal: NetworkedTerminal) async throws(MPOSError)
        -> [RecoveredAttempt]
    {
        guard !state.isBusy else { throw MPOSError.terminalBusy }
        await disconnect()
        state.useNetworkedTerminal(NetworkedSession(link: NexoLink(terminal)))
        emit(.readerConnection(connected: true, info: nil))
        try state.begin(.recovery)
        defer { state.end(.recovery) }
        return try await settleNetworkedAttempts()
    }


    // MARK: - Payments

    /// A sale or unreferenced refund on the networked terminal: journaled, sent once, and
    /// settled with TransactionStatus when its answer is lost.
    func runOnNetworkedTerminal(_ parameters: PaymentParameters, kind: CardOperation) async throws(MPOSError)
        -> PaymentResult
    {
        try parameters.validate()
        let operation: NetworkedAttempt.Operation
        switch kind {
        case .sale: operation = .sale
        case .refundUnreferenced: operation = .refundUnreferenced
        default:
            throw MPOSError.invalidArgument.withMessage(
                "A networked terminal takes sales and unreferenced refunds; \(kind.rawValue) is not offered.")
        }
        guard !state.isBusy else { throw MPOSError.terminalBusy }
        guard let link = state.networked?.link else { throw MPOSError.readerNotConnected }
        try state.begin(.networkedPayment)
        defer {
            state.end(.networkedPayment)
            state.networkedPaymentRunning(nil)
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
        try await payments.journal.write(attempt)
        state.networkedPaymentRunning(attempt)
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
        emit(.authorizing)
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
            step = await settle(attempt, link: link)
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
            do { try await payments.journal.write(attempt) } catch {
                result.journalError = error
                emit(.journalWriteFailed(error))
            }
        }
        emit(.completed(result.status))
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
    func settle(_ attempt: NetworkedAttempt, link: NexoLink, deadline: Duration? = nil)
        async -> StatusPolling.Step
    {
        emit(.recovering)
        var polling = StatusPolling(deadline: deadline ?? link.terminal.settlementDeadline)
        var step = polling.start()
        while case .ask(let pause) = step {
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
    func abortNetworkedPayment() async -> Bool {
        guard let session = state.networked, let running = session.running else { return false }
        let abort = SaleToPOIRequest(
            messageHeader: session.link.header(.abort, serviceID: NexoLink.newServiceID()),
            abortRequest: AbortRequest(
                messageReference: MessageReference(
                    messageCategory: .payment, serviceID: running.serviceID, saleID: running.saleID),
                abortReason: "MerchantAbort"))
        if case .success = await session.link.post(abort) { return true }
        return false
    }
}

extension NetworkedAttempt {
    /// Records a known outcome.
    mutating func finish(with result: PaymentResult) {
        state = .finished
        outcome = result.status
        transactionID = result.transactionID
        maskedPAN = result.maskedPAN
    }
}
