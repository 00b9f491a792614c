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

    /// The month (1–12) and four-digit year of an expiry written `YYMM`, as a card's 5F24 and
    /// a reader's authorization carry it; nil when it is not four digits with a real month.
    public static func expiryParts(yymm expiry: String?) -> (month: Int, year: Int)? {
        guard let expiry, expiry.utf8.count == 4, expiry.utf8.allSatisfy({ (48...57).contains($0) }),
            let yy = Int(expiry.prefix(2)), let mm = Int(expiry.suffix(2)), (1...12).contains(mm)
        else { return nil }
        return (mm, 2000 + yy)
    }
}
