import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `PUT /v1/webhooks/config`: where the gateway posts transaction callbacks.
public struct WebhookConfig: Codable, Sendable, Hashable {
    /// The `http` or `https` URL; `nil` turns callbacks off.
    public var callbackURL: String?
    /// The secret for the `X-Signature` HMAC-SHA256 of each callback body, 16...128
    /// characters; `nil` keeps the current one.
    public var secret: String?

    /// Creates a configuration.
    public init(callbackURL: String?, secret: String? = nil) {
        self.callbackURL = callbackURL
        self.secret = secret
    }
}

/// The webhook configuration as the gateway reports it (the secret never comes back).
public struct WebhookConfigResponse: Codable, Sendable, Hashable {
    /// The callback URL, if set.
    public var callbackURL: String?
    /// Whether a secret is set.
    public var hasSecret: Bool

    /// Creates the answer.
    public init(callbackURL: String?, hasSecret: Bool) {
        self.callbackURL = callbackURL
        self.hasSecret = hasSecret
    }
}
