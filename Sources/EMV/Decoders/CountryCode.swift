/// A country code in EMV's n 3 form (2 bytes, `0826` for the United Kingdom), as in
/// Terminal Country Code (`9F1A`) and Issuer Country Code (`5F28`).
public struct CountryCode: Sendable, Hashable {
    /// The ISO 3166-1 numeric code.
    public let numericCode: Int

    /// Decodes a country code; throws unless it is 2 bytes of decimal digits.
    public init(_ value: some Collection<UInt8>) throws(EMVValueError) {
        let bytes = Array(value)
        try checkLength(bytes, .fixed(2))
        numericCode = Int(try BCD.integer(bytes))
    }

    /// The ISO 3166-1 country, or `nil` when the code is not in the list.
    public var country: ISO3166Country? { ISO3166Numeric.country(numericCode: numericCode) }

    /// The country in one sentence: `"GB (United Kingdom), numeric 826"`.
    public var statements: [String] {
        let number = numericCode < 100 ? String(repeating: "0", count: numericCode < 10 ? 2 : 1) + "\(numericCode)" : "\(numericCode)"
        guard let country else { return ["Country \(number) is not an ISO 3166 country"] }
        return ["\(country.alpha2) (\(country.name)), numeric \(number)"]
    }
}
