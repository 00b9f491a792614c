import GatewayAPI
import ReaderLink

/// What ``PaymentTerminal/warmUp()`` found and prepared.
public struct WarmUpReport: Sendable, Hashable {
    /// Whether warm-up had to log in (no session, or the gateway had ended it).
    public var loggedIn: Bool
    /// The merchant, as the gateway describes it now (kept for receipts).
    public var merchant: MerchantInfo
    /// The connected reader's description, read just now; `nil` without a reader, or
    /// while an operation uses it.
    public var reader: DeviceInfo?

    /// Creates a report.
    public init(loggedIn: Bool, merchant: MerchantInfo, reader: DeviceInfo?) {
        self.loggedIn = loggedIn
        self.merchant = merchant
        self.reader = reader
    }
}
