extension Money: Codable {
    private enum CodingKeys: String, CodingKey {
        case amount
        case currency
    }

    /// Decodes `{"amount": 1234, "currency": "EUR"}`; throws `DecodingError.dataCorrupted`
    /// for a currency without minor units.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let amount = try container.decode(Int64.self, forKey: .amount)
        let currency = try container.decode(Currency.self, forKey: .currency)
        guard currency.minorUnits != nil else {
            throw DecodingError.dataCorruptedError(
                forKey: .currency, in: container,
                debugDescription: "\(currency.code) has no minor units and cannot carry an amount")
        }
        self.init(unchecked: amount, currency: currency)
    }

    /// Encodes the amount in minor units and the currency's alpha code.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(amount, forKey: .amount)
        try container.encode(currency, forKey: .currency)
    }
}
