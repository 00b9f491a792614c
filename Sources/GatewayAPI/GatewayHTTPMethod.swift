/// The HTTP methods the gateway's routes use.
///
/// The raw value is the method's name on the wire, so a transport that wants a string reads
/// `rawValue`.
public enum GatewayHTTPMethod: String, Sendable, Hashable, Codable, CaseIterable {
    /// `GET`: reads; safe to send again after a lost connection.
    case get = "GET"
    /// `POST`: creates or acts (payments, follow-ups, login).
    case post = "POST"
    /// `PUT`: replaces a resource (inventory, webhook configuration).
    case put = "PUT"
    /// `DELETE`: removes a resource.
    case delete = "DELETE"
}
