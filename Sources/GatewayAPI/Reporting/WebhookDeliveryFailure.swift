/// Why a webhook delivery attempt failed, from a small fixed set: the delivery log records
/// this and the HTTP status where one came, never the socket's error text, so that the log
/// cannot be used to map which internal hosts and ports answer.
///
/// A string on the wire (`"http_status"`); a gateway may add classes, which older clients
/// decode as unknown raw values rather than failing.
public struct WebhookDeliveryFailure: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible {
    /// The class's name on the wire.
    public let rawValue: String

    /// A class by its wire name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The receiver answered with a status other than 2xx or 3xx (see the delivery's
    /// `statusCode`).
    public static let httpStatus = WebhookDeliveryFailure(rawValue: "http_status")
    /// The receiver answered 3xx: redirects are never followed.
    public static let redirect = WebhookDeliveryFailure(rawValue: "redirect")
    /// No complete answer within the delivery's time limit.
    public static let timeout = WebhookDeliveryFailure(rawValue: "timeout")
    /// No connection: the host did not resolve, the connection was refused or reset, or the
    /// network was unreachable (not told apart, on purpose).
    public static let unreachable = WebhookDeliveryFailure(rawValue: "unreachable")
    /// The URL's host resolved to an address webhooks may not reach (link-local, cloud
    /// metadata, or a private or loopback address the gateway was not started to allow); no
    /// request was sent.
    public static let destinationRefused = WebhookDeliveryFailure(rawValue: "destination_refused")
    /// The TLS handshake failed (certificate not trusted or not for the host, protocol).
    public static let tls = WebhookDeliveryFailure(rawValue: "tls")

    /// Every class this version knows.
    public static let known: [WebhookDeliveryFailure] = [
        .httpStatus, .redirect, .timeout, .unreachable, .destinationRefused, .tls,
    ]

    /// The wire name.
    public var description: String { rawValue }

    /// Decodes the wire name.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the wire name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
