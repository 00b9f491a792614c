/// Why ``WebhookSignature/verify(header:eventID:body:secret:now:tolerance:)`` refused a
/// delivery. Match it with `==` (`catch let error as WebhookSignatureError where error == .staleTimestamp`);
/// cases may be added.
public struct WebhookSignatureError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Reason: Hashable {
        case malformedHeader, signatureMismatch, staleTimestamp
    }

    private let reason: Reason

    private init(_ reason: Reason) { self.reason = reason }

    /// The header is missing its `t` or `v1`, or holds something that is not one.
    public static let malformedHeader = WebhookSignatureError(.malformedHeader)
    /// No `v1` is the HMAC of the header's time, the event id and the body with the secret:
    /// another secret, or a changed body, event id or time.
    public static let signatureMismatch = WebhookSignatureError(.signatureMismatch)
    /// The signature is authentic but its time is further from now than the tolerance: a
    /// replayed delivery, or clocks far apart.
    public static let staleTimestamp = WebhookSignatureError(.staleTimestamp)

    /// What went wrong, for the receiver's log.
    public var description: String {
        switch reason {
        case .malformedHeader: "the webhook signature header is malformed"
        case .signatureMismatch: "the webhook signature does not match the body, event id and time"
        case .staleTimestamp: "the webhook signature's time is outside the tolerance (a replay?)"
        }
    }
}
