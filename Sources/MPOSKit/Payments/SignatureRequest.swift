/// What the merchant is shown while the cardholder signs: the merchant copy of the receipt
/// with its signature line, as Handpoint's `requestSignature` hands the app a receipt to
/// print or display for signing.
public struct SignatureRequest: Sendable, Hashable {
    /// The merchant copy the cardholder signs: the host's approval, amount and card, with the
    /// signature line.
    public var receipt: PaymentReceipt

    /// Creates a request from the receipt to sign.
    public init(receipt: PaymentReceipt) { self.receipt = receipt }

    /// The merchant copy as plain text, ready to print or show.
    public var merchantCopy: String { receipt.text(.merchant) }
}
