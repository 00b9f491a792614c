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
    /// `AbortRequest` for the running payment (see ``connect(_:)``).
    ///
    /// - Returns: whether the reader stopped the payment or the scanner.
    /// - Throws: ``MPOSError/cancelDuringPINEntry`` while the cardholder is entering the PIN:
    ///   only the cardholder can cancel then.
    @discardableResult
    public func cancel() async throws(MPOSError) -> Bool { try await state.paymentDevice.cancel(on: self) }

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
}
