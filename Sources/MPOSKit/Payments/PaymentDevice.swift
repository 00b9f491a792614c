import MPOSCore

/// Where the terminal's payments are carried out: a ReaderLink card reader (the card is read
/// here and the gateway authorizes) or a networked Terminal API terminal (it reads the card
/// and has its own acquirer). ``PaymentTerminal/sale(_:)`` and the other card payments,
/// ``PaymentTerminal/refund(transactionID:amount:)``, ``PaymentTerminal/void(transactionID:)``
/// and ``PaymentTerminal/cancel()`` go through the one the terminal's state names, so each
/// runs one pipeline whichever device is connected.
///
/// The device runs on the terminal's executor (`isolated`), where the journal and the parts
/// it needs live.
protocol PaymentDevice: Sendable {
    /// Takes a card payment of `kind`, journaled first and settled if its answer is lost.
    func takePayment(
        _ parameters: PaymentParameters, kind: CardOperation, mandateReference: String?, key: IdempotencyKey?,
        on terminal: isolated PaymentTerminal
    ) async throws(MPOSError) -> PaymentResult

    /// Refunds (`amount`, nil for all) or voids an earlier payment.
    func reverse(
        _ transactionID: TransactionID, amount: Int64?, kind: ReversalKind,
        on terminal: isolated PaymentTerminal
    ) async throws(MPOSError) -> PaymentResult

    /// Asks the payment in progress to stop; whether the device took the request.
    func cancel(on terminal: isolated PaymentTerminal) async throws(MPOSError) -> Bool
}

/// What ``PaymentDevice/reverse(_:amount:kind:on:)`` does to the earlier payment.
enum ReversalKind: Sendable, Hashable {
    case refund, void
}
