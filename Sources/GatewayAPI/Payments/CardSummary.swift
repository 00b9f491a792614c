import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The card as the gateway reports it: never more than first 6 / last 4 of the number.
public struct CardSummary: Codable, Sendable, Hashable {
    /// The scheme, such as `"visa"`, `"mastercard"`, `"maestro"`, `"amex"`.
    public var scheme: String
    /// The masked number, such as `"476173******0010"`.
    public var maskedPAN: String
    /// The cardholder name as the card carries it, if any.
    public var cardholderName: String?
    /// Expiry month, 1...12.
    public var expiryMonth: Int?
    /// Expiry year, four digits.
    public var expiryYear: Int?

    /// Creates a card summary.
    public init(
        scheme: String, maskedPAN: String, cardholderName: String? = nil, expiryMonth: Int? = nil,
        expiryYear: Int? = nil
    ) {
        self.scheme = scheme
        self.maskedPAN = maskedPAN
        self.cardholderName = cardholderName
        self.expiryMonth = expiryMonth
        self.expiryYear = expiryYear
    }
}
