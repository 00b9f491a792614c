extension Currency: Codable {
    /// Decodes a currency from its alpha code string, ignoring ASCII case; throws
    /// `DecodingError.dataCorrupted` for a code that is not an active ISO 4217 currency.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let currency = Currency(code: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "Not an active ISO 4217 currency code")
        }
        self = currency
    }

    /// Encodes the currency as its upper-case alpha code string (`"EUR"`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }
}
