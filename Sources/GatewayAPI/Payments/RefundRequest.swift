import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `POST /v1/transactions/{id}/refund`: refund (part of) a captured sale.
public struct RefundRequest: Codable, Sendable, Hashable {
    /// The amount in minor units; `nil` refunds what remains.
    public var amount: Int64?
    /// Why, for the merchant's records.
    public var reason: String?

    /// Creates the request.
    public init(amount: Int64? = nil, reason: String? = nil) {
        self.amount = amount
        self.reason = reason
    }
}
