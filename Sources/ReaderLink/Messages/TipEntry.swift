/// The tip the cardholder chose on the reader (Handpoint's `Tip input` step, status
/// ``MPOSCore/ReaderStatusCode/tipInput``), reported to the SDK before the authorization
/// request. The chip's cryptogram covers the requested amount plus this tip.
public struct TipEntry: Sendable, Hashable {
    /// The transaction the tip belongs to.
    public var transactionID: String
    /// The tip in minor units; 0 when the cardholder chose no tip.
    public var tipAmountMinorUnits: Int64
    /// The offered percentage the cardholder picked, when the tip is one; nil for a fixed or
    /// typed amount, or no tip.
    public var percentage: UInt8?

    /// Creates a tip entry.
    public init(transactionID: String, tipAmountMinorUnits: Int64, percentage: UInt8? = nil) {
        self.transactionID = transactionID
        self.tipAmountMinorUnits = tipAmountMinorUnits
        self.percentage = percentage
    }
}
