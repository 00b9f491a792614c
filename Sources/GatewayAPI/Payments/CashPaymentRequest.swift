import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `POST /v1/payments/cash`: record a cash sale or cash refund (no card involved).
public struct CashPaymentRequest: Codable, Sendable, Hashable {
    /// `sale` or `refund`.
    public var kind: TransactionKind
    /// Amount in minor units, > 0.
    public var amount: Int64
    /// The currency.
    public var currency: Currency
    /// The merchant's reference for the customer or order.
    public var customerReference: String?
    /// The merchant's unique id for the payment, ≤ 50 characters.
    public var externalID: String?
    /// What was bought.
    public var basket: Basket?
    /// The customer's name, as the merchant records it with the payment (the Accept seed's
    /// cash payment cardholder name): 1 to 45 characters, no control characters.
    public var cardholderName: String?

    /// The longest ``cardholderName``.
    public static let cardholderNameMaximumLength = 45

    /// Whether `name` is a ``cardholderName`` the contract allows: 1 to 45 characters, none a
    /// control character.
    public static func isValidCardholderName(_ name: String) -> Bool {
        (1...cardholderNameMaximumLength).contains(name.unicodeScalars.count)
            && !name.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// Creates the request.
    public init(
        kind: TransactionKind = .sale, amount: Int64, currency: Currency,
        customerReference: String? = nil, externalID: String? = nil, basket: Basket? = nil,
        cardholderName: String? = nil
    ) {
        self.cardholderName = cardholderName
        self.kind = kind
        self.amount = amount
        self.currency = currency
        self.customerReference = customerReference
        self.externalID = externalID
        self.basket = basket
    }
}
