import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One attempt to deliver a callback.
public struct WebhookDelivery: Codable, Sendable, Hashable {
    /// The delivery id.
    public var id: String
    /// The transaction the callback is about.
    public var transactionID: TransactionID
    /// The URL posted to.
    public var url: String
    /// Attempt number, from 1.
    public var attempt: Int
    /// The HTTP status received, if any.
    public var statusCode: Int?
    /// Why it failed, if it did: a class, never the socket's error text.
    public var failure: WebhookDeliveryFailure?
    /// When it was attempted.
    public var attemptedAt: Date
    /// Whether it succeeded (2xx).
    public var succeeded: Bool

    /// Creates a delivery record.
    public init(
        id: String, transactionID: TransactionID, url: String, attempt: Int, statusCode: Int?,
        failure: WebhookDeliveryFailure?, attemptedAt: Date, succeeded: Bool
    ) {
        self.id = id
        self.transactionID = transactionID
        self.url = url
        self.attempt = attempt
        self.statusCode = statusCode
        self.failure = failure
        self.attemptedAt = attemptedAt
        self.succeeded = succeeded
    }
}

/// `GET /v1/webhooks/deliveries`: the caller's delivery log, newest first.
public struct WebhookDeliveryList: Codable, Sendable, Hashable {
    /// The deliveries.
    public var deliveries: [WebhookDelivery]

    /// Creates the list.
    public init(deliveries: [WebhookDelivery]) { self.deliveries = deliveries }
}
