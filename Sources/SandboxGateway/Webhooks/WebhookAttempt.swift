import Foundation
import GatewayAPI

/// One delivery attempt, as the delivery log records it.
public struct WebhookAttempt: Sendable, Hashable, Codable {
    /// The event delivered.
    public var eventID: String
    /// The merchant whose webhook this is.
    public var merchantID: String
    /// The transaction the event is about.
    public var transactionID: String
    /// The target URL.
    public var url: String
    /// 1 for the first attempt.
    public var attempt: Int
    /// The HTTP status, when an answer came.
    public var statusCode: Int?
    /// Why the attempt failed: a class from a fixed set, never the socket's error text (with
    /// ``statusCode`` for `http_status` and `redirect`).
    public var failure: WebhookDeliveryFailure?
    /// Whether the receiver accepted it (2xx).
    public var succeeded: Bool
    /// When the attempt was made.
    public var attemptedAt: Date
    /// When the next attempt is due, if one follows.
    public var nextAttemptAt: Date?
}

/// Where the dispatcher records attempts.
public protocol WebhookDeliveryLog: Sendable {
    /// Stores one attempt.
    func record(_ attempt: WebhookAttempt) async
}
