import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `POST /v1/transactions/{id}/void`: cancel a sale or refund before its batch closes.
public struct VoidRequest: Codable, Sendable, Hashable {
    /// Why, for the merchant's records.
    public var reason: String?

    /// Creates the request.
    public init(reason: String? = nil) { self.reason = reason }
}
