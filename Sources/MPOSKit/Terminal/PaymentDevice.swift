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

/// A ReaderLink card reader: card payments run the journaled ``PaymentEngine`` flow over the
/// reader link and the gateway; refunds and voids are gateway requests that need no card.
struct CardReaderDevice: PaymentDevice {
    func takePayment(
        _ parameters: PaymentParameters, kind: CardOperation, mandateReference: String?, key: IdempotencyKey?,
        on terminal: isolated PaymentTerminal
    ) async throws(MPOSError) -> PaymentResult {
        try await terminal.runCardOnReader(
            parameters, kind: kind, mandateReference: mandateReference, key: key)
    }

    func reverse(
        _ transactionID: TransactionID, amount: Int64?, kind: ReversalKind,
        on terminal: isolated PaymentTerminal
    ) async throws(MPOSError) -> PaymentResult {
        switch kind {
        case .refund: try await terminal.refundAtGateway(transactionID, amount: amount)
        case .void: try await terminal.voidAtGateway(transactionID)
        }
    }

    func cancel(on terminal: isolated PaymentTerminal) async throws(MPOSError) -> Bool {
        try await terminal.cancelOnReader()
    }
}

/// A networked Terminal API terminal: payments are Payment requests, refunds and voids
/// Reversal requests, and cancel an Abort, each journaled first and settled with
/// TransactionStatus when its answer is lost.
struct NetworkedTerminalDevice: PaymentDevice {
    func takePayment(
        _ parameters: PaymentParameters, kind: CardOperation, mandateReference: String?, key: IdempotencyKey?,
        on terminal: isolated PaymentTerminal
    ) async throws(MPOSError) -> PaymentResult {
        if parameters.tipOptions != nil {
            // Its own software prompts (or not) for a tip: the options would go unused.
            throw MPOSError.invalidTipOptions.withMessage("A networked terminal does not take tip options.")
        }
        return try await terminal.runOnNetworkedTerminal(parameters, kind: kind)
    }

    func reverse(
        _ transactionID: TransactionID, amount: Int64?, kind: ReversalKind,
        on terminal: isolated PaymentTerminal
    ) async throws(MPOSError) -> PaymentResult {
        try await terminal.reverseOnNetworkedTerminal(
            transactionID, amount: amount, kind: kind == .refund ? .refund : .saleVoid)
    }

    func cancel(on terminal: isolated PaymentTerminal) async throws(MPOSError) -> Bool {
        await terminal.abortNetworkedPayment()
    }
}
