import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The body of a transaction callback (the Accept callback's fields). The card number is
/// masked.
public struct WebhookPayload: Codable, Sendable, Hashable {
    /// The transaction id.
    public var uniqueID: String
    /// The merchant id.
    public var merchantID: String
    /// The merchant's name.
    public var merchantName: String
    /// The user who took the payment, if any.
    public var userID: String?
    /// The terminal id, if known.
    public var terminalID: String?
    /// The terminal's serial number, if known.
    public var terminalSerialNumber: String?
    /// Total, minor units.
    public var amount: Int64
    /// The currency.
    public var currency: Currency
    /// When the transaction was recorded.
    public var createdAt: Date
    /// The card scheme.
    public var cardBrand: String?
    /// The masked card number.
    public var cardNumber: String?
    /// The cardholder name.
    public var cardholderName: String?
    /// The transaction's status.
    public var state: FinancialStatus
    /// A ``GatewayErrorCode`` or issuer response code when it failed or was declined.
    public var errorCode: String?
    /// The matching message.
    public var errorMessage: String?
    /// The application label.
    public var aidLabel: String?
    /// The AID.
    public var aid: String?

    /// Creates a payload.
    public init(
        uniqueID: String, merchantID: String, merchantName: String, userID: String? = nil,
        terminalID: String? = nil, terminalSerialNumber: String? = nil, amount: Int64,
        currency: Currency, createdAt: Date, cardBrand: String? = nil, cardNumber: String? = nil,
        cardholderName: String? = nil, state: FinancialStatus, errorCode: String? = nil,
        errorMessage: String? = nil, aidLabel: String? = nil, aid: String? = nil
    ) {
        self.uniqueID = uniqueID
        self.merchantID = merchantID
        self.merchantName = merchantName
        self.userID = userID
        self.terminalID = terminalID
        self.terminalSerialNumber = terminalSerialNumber
        self.amount = amount
        self.currency = currency
        self.createdAt = createdAt
        self.cardBrand = cardBrand
        self.cardNumber = cardNumber
        self.cardholderName = cardholderName
        self.state = state
        self.errorCode = errorCode
        self.errorMessage = errorMessage
        self.aidLabel = aidLabel
        self.aid = aid
    }
}
