import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `POST /v1/transactions/{id}/capture`: capture an authorisation.
public struct CaptureRequest: Codable, Sendable, Hashable {
    /// The amount to capture in minor units; `nil` captures the full authorised amount.
    public var amount: Int64?

    /// Creates the request.
    public init(amount: Int64? = nil) { self.amount = amount }
}
