import Foundation
import GatewayAPI
import MPOSCore

// Gateway-only operations: follow-ups of an earlier transaction (refund, void, capture, tip)
// and cash records. Each is one idempotent, journaled gateway request; no reader is involved.
extension PaymentTerminal {
    /// Refunds (part of) a captured sale; `amount` nil refunds what remains. With a networked
    /// terminal, a `ReversalRequest` to it (see ``connect(_:)``).
    ///
    /// - Throws: ``MPOSError/amountNotPositive``, ``MPOSError/invalidArgument``,
    ///   ``MPOSError/terminalBusy``, ``MPOSError/notLoggedIn``, ``MPOSError/journalFailed``.
    public func refund(transactionID: TransactionID, amount: Int64? = nil) async throws(MPOSError) -> PaymentResult {
        if let amount, amount <= 0 { throw MPOSError.amountNotPositive }
        return try await state.paymentDevice.reverse(transactionID, amount: amount, kind: .refund, on: self)
    }

    /// Voids a sale or refund before its batch closes. With a networked terminal, a
    /// `ReversalRequest` of the whole payment to it (see ``connect(_:)``).
    ///
    /// - Throws: ``MPOSError/terminalBusy``, ``MPOSError/notLoggedIn``, ``MPOSError/journalFailed``.
    public func void(transactionID: TransactionID) async throws(MPOSError) -> PaymentResult {
        try await state.paymentDevice.reverse(transactionID, amount: nil, kind: .void, on: self)
    }

    /// Captures an approved authorisation or pre-authorisation: all of it (`amount` nil) or
    /// part of it. An authorisation is captured once.
    ///
    /// - Returns: a result of kind ``TransactionKind/capture`` whose `transactionID` is the
    ///   capture's; `failed` with ``MPOSError/gatewayRefused`` when the gateway refuses
    ///   (already captured, more than authorised, not an authorisation).
    /// - Throws: ``MPOSError/amountNotPositive`` (before any I/O), ``MPOSError/terminalBusy``,
    ///   ``MPOSError/notLoggedIn``, ``MPOSError/journalFailed``.
    public func capture(transactionID: TransactionID, amount: Int64? = nil) async throws(MPOSError)
        -> PaymentResult
    {
        if let amount, amount <= 0 { throw MPOSError.amountNotPositive }
        return try await followUp(
            .capture, kind: .capture,
            endpoint: GatewayRoutes.capture,
            original: transactionID, amount: amount, body: CaptureRequest(amount: amount))
    }

    /// Sets the tip of an approved sale taken with ``CaptureMode/tipAdjustment`` (it replaces
    /// any earlier tip) until the batch closes.
    ///
    /// - Returns: a result of kind ``TransactionKind/tipAdjustment`` with the tip as its
    ///   amount and the sale's `transactionID`.
    /// - Throws: ``MPOSError/invalidArgument`` for a negative tip (before any I/O),
    ///   ``MPOSError/terminalBusy``, ``MPOSError/notLoggedIn``, ``MPOSError/journalFailed``.
    public func adjustTip(transactionID: TransactionID, tipAmount: Int64) async throws(MPOSError)
        -> PaymentResult
    {
        guard tipAmount >= 0 else {
            throw MPOSError.invalidArgument.withMessage("The tip must be zero or more, not \(tipAmount).")
        }
        var result = try await followUp(
            .tipAdjustment, kind: .tipAdjustment,
            endpoint: GatewayRoutes.tipAdjust,
            original: transactionID, amount: tipAmount, body: TipAdjustRequest(tipAmount: tipAmount))
        // The gateway answers with the sale, now carrying the tip: report the adjustment.
        result.kind = .tipAdjustment
        result.approvedAmount = result.status == .approved ? tipAmount : 0
        result.authorizationCode = nil
        return result
    }

    /// Records a cash sale (or, with `refund`, cash paid back) so that reports and batches
    /// hold every payment. No reader is involved.
    ///
    /// Of the parameters, the amount, currency, customer reference and external id count;
    /// `cardholderName` is the customer's name kept with the payment (the Accept seed's cash
    /// payment cardholder name), on the result as ``PaymentResult/cardholderName``.
    ///
    /// - Returns: a result of kind ``TransactionKind/cash`` (``TransactionKind/refund`` for
    ///   a refund), approved once the gateway recorded it.
    /// - Throws: what ``PaymentParameters/validate()`` throws, and ``MPOSError/invalidArgument``
    ///   for a name of more than 45 characters or with control characters (before any I/O);
    ///   ``MPOSError/terminalBusy``, ``MPOSError/notLoggedIn``, ``MPOSError/journalFailed``.
    public func recordCash(_ parameters: PaymentParameters, refund: Bool = false, cardholderName: String? = nil)
        async throws(MPOSError) -> PaymentResult
    {
        try parameters.validate()
        if let cardholderName, !CashPaymentRequest.isValidCardholderName(cardholderName) {
            throw MPOSError.invalidArgument.withMessage(
                "A cash payment's cardholder name is 1 to \(CashPaymentRequest.cardholderNameMaximumLength) characters without control characters.")
        }
        var result = try await followUp(
            refund ? .cashRefund : .cash, kind: refund ? .refund : .cash, endpoint: GatewayRoutes.cashPayment,
            original: nil,
            amount: parameters.amount, currency: parameters.currency,
            body: CashPaymentRequest(
                kind: refund ? .refund : .sale, amount: parameters.amount, currency: parameters.currency,
                customerReference: parameters.customerReference, externalID: parameters.externalID,
                basket: parameters.basket, cardholderName: cardholderName))
        result.basket = parameters.basket
        await accessories.openDrawer(after: result)
        return result
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
    ///   - endpoint: where it goes; a template's `{id}` is `original`.
    ///   - kind: the kind a result reports when the gateway recorded nothing.
    ///   - currency: the currency a result reports when the gateway recorded nothing.
    func followUp<Body: Encodable & Sendable>(
        _ operation: FollowUpOperation, kind: TransactionKind, endpoint: GatewayEndpoint<Body, Transaction>,
        original: TransactionID?, amount: Int64?,
        currency: Currency? = nil, body: Body
    ) async throws(MPOSError) -> PaymentResult {
        let hold = try gate.begin(.followUp)
        defer { gate.end(hold) }
        try await requireSession()
        let now = Date()
        let key: IdempotencyKey
        var entry: JournalEntry
        if let original, await recovery.followUpsMayBeUnfinished,
            let unknown = try payments.journal.unfinishedFollowUp(operation, of: original, amount: amount)
        {
            key = unknown.key
            entry = unknown
        } else {
            key = IdempotencyKey()
            entry = JournalEntry(
                key: key, operation: .followUp(operation), readerTransactionID: nil,
                originalTransactionID: original, amount: amount, currency: currency,
                state: .authorizing, maskedPAN: nil, gatewayTransactionID: nil, outcome: nil, createdAt: now,
                updatedAt: now)
            try await payments.journal.write(entry)
        }
        let answer = await client.idempotent(endpoint, id: original?.rawValue, body: body, key: key)
        let merchant = await client.merchant?.name
        switch answer {
        case .transaction(let transaction):
            // A refund the gateway received and decides later is finished here: the webhook
            // and a lookup of its id tell the outcome.
            let status: PaymentStatus =
                transaction.status == .pending
                ? .pending
                : transaction.status == .declined || transaction.status == .failed ? .declined : .approved
            entry.state = .finished
            entry.gatewayTransactionID = transaction.id
            entry.outcome = status
            entry.updatedAt = Date()
            try await payments.journal.write(entry)
            hub.emit(.completed(status))
            return PaymentResult(
                status: status, kind: transaction.kind, requestedAmount: amount ?? transaction.requestedAmount,
                approvedAmount: transaction.approvedAmount, currency: transaction.currency, transactionID: transaction.id,
                idempotencyKey: key, authorizationCode: transaction.authorizationCode, responseCode: transaction.responseCode,
                cvm: transaction.cvm, entryMode: transaction.entryMode, maskedPAN: transaction.card?.maskedPAN,
                scheme: transaction.card?.scheme, merchantName: merchant, date: transaction.createdAt,
                batchID: transaction.batchID, acquirerMessage: transaction.acquirerMessage,
                cardholderName: transaction.card?.cardholderName ?? transaction.cardholderName,
                expiryMonth: transaction.card?.expiryMonth,
                expiryYear: transaction.card?.expiryYear)
        case .refused(let status, let body):
            entry.state = .finished
            entry.outcome = .failed
            entry.updatedAt = Date()
            try await payments.journal.write(entry)
            hub.emit(.completed(.failed))
            return PaymentResult(
                status: .failed, kind: kind, requestedAmount: amount ?? 0, approvedAmount: 0, currency: currency ?? .eur,
                transactionID: nil, idempotencyKey: key,
                error: MPOSError.gatewayRefused.withMessage("The gateway answered \(status): \(body.description)"),
                merchantName: merchant, date: now)
        case nil:
            // Unknown: the journal keeps it; asking again resumes it, the next login finishes it.
            await recovery.followUpLeftUnfinished()
            hub.emit(.completed(.failed))
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
}
