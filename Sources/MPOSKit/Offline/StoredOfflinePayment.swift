import Foundation
import GatewayAPI
import MPOSCore

/// A sale the card approved offline and the SDK stored, as ``OfflinePayments/list()`` shows
/// it: never card data beyond the masked PAN.
public struct StoredOfflinePayment: Sendable, Hashable, Codable {
    /// The stored id, as the sale's result gave it (``PaymentResult/offlineID``).
    public var id: UUID
    /// The idempotency key fixed when it was stored: the forward uses it.
    public var idempotencyKey: IdempotencyKey
    /// The amount, minor units.
    public var amount: Int64
    /// The currency.
    public var currency: Currency
    /// The masked card number (first 6 / last 4).
    public var maskedPAN: String?
    /// When it was stored.
    public var storedAt: Date
    /// Its outcome once forwarded; nil while it waits.
    public var forwarded: OfflineForwardOutcome?
}

/// The gateway's final word on a forwarded offline sale.
public struct OfflineForwardOutcome: Sendable, Hashable, Codable {
    /// The stored payment's id.
    public var id: UUID
    /// Whether the issuer approved it; `false` is "declined after the fact": the card approved
    /// offline but the money did not move.
    public var approved: Bool
    /// The gateway's transaction id, when it recorded one.
    public var transactionID: TransactionID?
    /// The issuer's response code, such as `"00"` or `"51"`.
    public var responseCode: String?
    /// When the outcome was recorded.
    public var forwardedAt: Date

    /// Creates an outcome.
    public init(
        id: UUID, approved: Bool, transactionID: TransactionID?, responseCode: String?, forwardedAt: Date
    ) {
        self.id = id
        self.approved = approved
        self.transactionID = transactionID
        self.responseCode = responseCode
        self.forwardedAt = forwardedAt
    }
}

/// What one stored record holds: the forward request exactly as it will be sent (sealed card
/// data, EMV data with the TC, amount, currency and parameters), its key and the stored time.
struct OfflineRecord: Sendable, Hashable, Codable {
    var id: UUID
    var key: IdempotencyKey
    var storedAt: Date
    var request: AuthorizeCardRequest

    /// How ``OfflinePayments/list()`` shows it.
    func summary(forwarded: OfflineForwardOutcome?) -> StoredOfflinePayment {
        StoredOfflinePayment(
            id: id, idempotencyKey: key, amount: request.parameters.amount,
            currency: request.parameters.currency,
            maskedPAN: request.maskedPAN, storedAt: storedAt, forwarded: forwarded)
    }
}
