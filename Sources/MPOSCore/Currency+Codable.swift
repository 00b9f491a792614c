extension Currency: Codable {
    /// Decodes a currency from its alpha code string as ISO 4217 writes it, in upper case
    /// (`"EUR"`); throws `DecodingError.dataCorrupted` for anything else, lower case included,
    /// so that JSON documents hold one spelling per currency. ``Currency/init(code:)`` still
    /// ignores case for text a person types.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let currency = Currency(code: text), currency.code == text else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "Not an active ISO 4217 currency code in upper case (\"EUR\")")
        }
        self = currency
    }

    /// Encodes the currency as its upper-case alpha code string (`"EUR"`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }
}
