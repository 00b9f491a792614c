import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `PUT /v1/webhooks/config`: where the gateway posts transaction callbacks.
public struct WebhookConfig: Codable, Sendable, Hashable {
    /// The `http` or `https` URL, without a user or password; `nil` turns callbacks off. Its
    /// host must resolve to an address webhooks may reach (never link-local or cloud metadata;
    /// private and loopback addresses only where the gateway allows them): 400 with
    /// ``GatewayErrorCode/webhookDestinationRefused`` otherwise.
    public var callbackURL: String?
    /// The secret the ``WebhookSignature`` of each callback is keyed with, 16...128
    /// characters; `nil` keeps the current one.
    public var secret: String?
    /// Whether card refunds are answered at once as received (status `pending`) and decided
    /// later, the outcome coming by webhook, as Adyen's refunds are; `nil` keeps the current
    /// setting, which is off until set.
    public var asynchronousRefunds: Bool?

    /// Creates a configuration.
    public init(callbackURL: String?, secret: String? = nil, asynchronousRefunds: Bool? = nil) {
        self.callbackURL = callbackURL
        self.secret = secret
        self.asynchronousRefunds = asynchronousRefunds
    }
}

/// The webhook configuration as the gateway reports it (the secret never comes back).
public struct WebhookConfigResponse: Codable, Sendable, Hashable {
    /// The callback URL, if set.
    public var callbackURL: String?
    /// Whether a secret is set.
    public var hasSecret: Bool
    /// Whether refunds are answered as received and decided later (see
    /// ``WebhookConfig/asynchronousRefunds``); `false` when absent.
    public var asynchronousRefunds: Bool

    /// Creates the answer.
    public init(callbackURL: String?, hasSecret: Bool, asynchronousRefunds: Bool = false) {
        self.callbackURL = callbackURL
        self.hasSecret = hasSecret
        self.asynchronousRefunds = asynchronousRefunds
    }

    /// Decodes the answer; a gateway that predates the setting sends no `asynchronousRefunds`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        callbackURL = try container.decodeIfPresent(String.self, forKey: .callbackURL)
        hasSecret = try container.decode(Bool.self, forKey: .hasSecret)
        asynchronousRefunds = try container.decodeIfPresent(Bool.self, forKey: .asynchronousRefunds) ?? false
    }
}
