import GatewayAPI
import MPOSCore

// The operations beyond sale, refund and void: (pre-)authorisations and their captures, tip
// adjustment, unreferenced refunds to a card, cash and SEPA records. Card-present ones run
// the sale's flow (journal first, lookup by key, reversal of what the card did not complete);
// the others are one idempotent, journaled gateway request.
extension PaymentTerminal {
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
            "capture", kind: .capture,
            path: GatewayPaths.transaction(GatewayPaths.capture, id: transactionID.rawValue),
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
            "tipAdjustment", kind: .tipAdjustment,
            path: GatewayPaths.transaction(GatewayPaths.tipAdjust, id: transactionID.rawValue),
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
    /// Of the parameters, the amount, currency, customer reference and external id count.
    ///
    /// - Returns: a result of kind ``TransactionKind/cash`` (``TransactionKind/refund`` for
    ///   a refund), approved once the gateway recorded it.
    /// - Throws: what ``PaymentParameters/validate()`` throws (before any I/O),
    ///   ``MPOSError/terminalBusy``, ``MPOSError/notLoggedIn``, ``MPOSError/journalFailed``.
    public func recordCash(_ parameters: PaymentParameters, refund: Bool = false) async throws(MPOSError)
        -> PaymentResult
    {
        try parameters.validate()
        var result = try await followUp(
            refund ? "cashRefund" : "cash", kind: refund ? .refund : .cash, path: GatewayPaths.cashPayment,
            original: nil,
            amount: parameters.amount, currency: parameters.currency,
            body: CashPaymentRequest(
                kind: refund ? .refund : .sale, amount: parameters.amount, currency: parameters.currency,
                customerReference: parameters.customerReference, externalID: parameters.externalID,
                basket: parameters.basket))
        result.basket = parameters.basket
        return result
    }
}
