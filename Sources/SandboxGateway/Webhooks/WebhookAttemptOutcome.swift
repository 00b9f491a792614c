import GatewayAPI

/// How one delivery attempt ended, as the log records it: delivered (2xx), or a failure class
/// with the HTTP status where an answer came.
struct WebhookAttemptOutcome: Sendable, Hashable {
    /// The answer's status, if one came.
    var statusCode: Int?
    /// Why it failed; `nil` when delivered.
    var failure: WebhookDeliveryFailure?

    /// The outcome of an answer with `status`: 2xx delivered, 3xx `redirect` (never followed),
    /// anything else `http_status`.
    init(status: Int) {
        statusCode = status
        switch status {
        case 200..<300: failure = nil
        case 300..<400: failure = .redirect
        default: failure = .httpStatus
        }
    }

    /// A failure with no answer.
    init(failure: WebhookDeliveryFailure) {
        statusCode = nil
        self.failure = failure
    }

    /// Whether the receiver accepted the delivery.
    var succeeded: Bool { failure == nil }

    /// Whether another attempt may follow: not after a success, and not after a refused
    /// destination, which the policy would refuse again.
    var isRetried: Bool { failure != nil && failure != .destinationRefused }
}
