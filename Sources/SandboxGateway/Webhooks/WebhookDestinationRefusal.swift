import GatewayAPI

/// Why the gateway will not post to a webhook or callback URL.
public enum WebhookDestinationRefusal: Error, Sendable, Hashable {
    /// The URL is not an absolute http(s) URL with a host, or carries a user or password.
    case malformedURL
    /// The host does not resolve.
    case unresolvable
    /// A loopback address, and the gateway was not started to allow it.
    case loopback
    /// A private address, and the gateway was not started to allow it.
    case privateNetwork
    /// A link-local address: never.
    case linkLocal
    /// A cloud metadata service: never.
    case cloudMetadata
    /// A multicast, broadcast or reserved address: never.
    case reserved

    /// The message of the 400 answer for the request field `field`; it names neither the URL
    /// nor the address it resolved to, so that it maps nothing internal.
    public func message(field: String) -> String {
        switch self {
        case .malformedURL:
            "\(field) must be an absolute http or https URL with a host and without a user or password."
        case .unresolvable: "\(field)'s host does not resolve."
        case .loopback:
            "\(field)'s host is a loopback address, which this gateway does not post to "
                + "(start it with --allow-webhooks-to loopback to allow it)."
        case .privateNetwork:
            "\(field)'s host is a private address, which this gateway does not post to "
                + "(start it with --allow-webhooks-to private to allow it)."
        case .linkLocal: "\(field)'s host is a link-local address, which webhooks never reach."
        case .cloudMetadata: "\(field)'s host is a cloud metadata address, which webhooks never reach."
        case .reserved: "\(field)'s host is a multicast or reserved address, which webhooks never reach."
        }
    }

    /// The gateway error for the request field `field`: 400 with
    /// ``GatewayAPI/GatewayErrorCode/webhookDestinationRefused``, or
    /// ``GatewayAPI/GatewayErrorCode/invalidValue`` for a malformed URL.
    public func gatewayError(field: String) -> GatewayError {
        self == .malformedURL
            ? .invalid(message(field: field)) : .webhookDestinationRefused(message(field: field))
    }

    /// The delivery log's class for a refusal at delivery: a host that no longer resolves is
    /// `unreachable`, every other refusal `destination_refused`.
    var deliveryFailure: WebhookDeliveryFailure {
        self == .unresolvable ? .unreachable : .destinationRefused
    }
}
