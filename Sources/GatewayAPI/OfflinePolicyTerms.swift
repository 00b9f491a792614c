#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The merchant's offline limits as the gateway keeps them and returns them at login
/// (``Session/offlinePolicy``): how much the SDK may approve offline before it must reach the
/// gateway again.
public struct OfflinePolicyTerms: Codable, Sendable, Hashable {
    /// The largest single offline sale, minor units; nil for none.
    public var maximumPaymentAmount: Int64?
    /// The most stored (not yet forwarded) per ISO 4217 code, minor units.
    public var maximumTotalPerCurrency: [String: Int64]
    /// The most sales stored at once; nil for none.
    public var maximumStoredPayments: Int?
    /// How many hours after the last online session sales may be taken offline (24 by default).
    public var maximumHoursOffline: Int

    /// Creates terms; by default only the 24-hour window applies.
    public init(
        maximumPaymentAmount: Int64? = nil, maximumTotalPerCurrency: [String: Int64] = [:],
        maximumStoredPayments: Int? = nil, maximumHoursOffline: Int = 24
    ) {
        self.maximumPaymentAmount = maximumPaymentAmount
        self.maximumTotalPerCurrency = maximumTotalPerCurrency
        self.maximumStoredPayments = maximumStoredPayments
        self.maximumHoursOffline = maximumHoursOffline
    }
}
