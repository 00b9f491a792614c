import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `POST /v1/transactions/{id}/reverse`: undo an authorisation at the issuer.
public struct ReverseRequest: Codable, Sendable, Hashable {
    /// Why.
    public var reason: ReversalReason?

    /// Creates the request.
    public init(reason: ReversalReason? = nil) { self.reason = reason }
}

/// Why a transaction is reversed.
public enum ReversalReason: String, Codable, Sendable, Hashable, CaseIterable {
    /// The merchant or the app asked for it.
    case merchantRequest
    /// The card declined (second GENERATE AC returned an AAC) what the host approved.
    case cardDeclined
    /// The terminal did not receive the host's answer in time.
    case timeout
    /// The card was removed before completion.
    case cardRemoved
    /// Another terminal or SDK error after approval.
    case terminalError
}
