import Foundation
import GatewayAPI
import MPOSCore

/// Which gateway and merchant a set of credentials reaches: what a journal is bound to.
///
/// An app (or a tool) that talks to more than one gateway, a sandbox and production say,
/// keeps one journal per identity, so that each journal's unfinished attempts are settled
/// at the gateway that saw them. ``PaymentTerminal/identify(environment:credentials:transport:)``
/// reads it without opening a journal.
public struct GatewayIdentity: Sendable, Hashable, Codable {
    /// The gateway's instance id, kept across its restarts, ports and proxies; nil from a
    /// gateway that does not report one (the URL then stands for the gateway).
    public var gatewayInstanceID: String?
    /// The merchant the credentials belong to.
    public var merchantID: String
    /// The URL the gateway was reached at, without a trailing slash.
    public var gatewayURL: String

    /// Creates an identity.
    public init(gatewayInstanceID: String?, merchantID: String, gatewayURL: String) {
        self.gatewayInstanceID = gatewayInstanceID
        self.merchantID = merchantID
        self.gatewayURL = gatewayURL
    }
}

extension GatewayIdentity: CustomStringConvertible {
    /// Whether a journal bound to `self` may hold attempts made with `other`: the same
    /// merchant at the same gateway instance or, where either side knows no instance id, at
    /// the same URL.
    public func admits(_ other: GatewayIdentity) -> Bool {
        guard merchantID == other.merchantID else { return false }
        if let mine = gatewayInstanceID, let theirs = other.gatewayInstanceID { return mine == theirs }
        return gatewayURL == other.gatewayURL
    }

    /// The merchant and the gateway, as a message names them.
    public var description: String {
        "merchant \(merchantID) at "
            + (gatewayInstanceID.map { "gateway \($0) (last reached at \(gatewayURL))" } ?? gatewayURL)
    }
}
