import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `POST /v1/transactions/{id}/tip`: set the tip of an approved sale before its batch
/// closes.
public struct TipAdjustRequest: Codable, Sendable, Hashable {
    /// The new tip in minor units (replaces any earlier tip), ≥ 0.
    public var tipAmount: Int64

    /// Creates the request.
    public init(tipAmount: Int64) { self.tipAmount = tipAmount }
}
