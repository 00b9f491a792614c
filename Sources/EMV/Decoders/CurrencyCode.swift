/// A currency code in EMV's n 3 form (2 bytes, `0978` for the euro), as in Transaction
/// Currency Code (`5F2A`) and Application Currency Code (`9F42`).
public struct CurrencyCode: Sendable, Hashable {
    /// The ISO 4217 numeric code.
    public let numericCode: Int

    /// Decodes a currency code; throws unless it is 2 bytes of decimal digits.
    public init(_ value: some Collection<UInt8>) throws(EMVValueError) {
        let bytes = Array(value)
        try checkLength(bytes, .fixed(2))
        numericCode = Int(try BCD.integer(bytes))
    }

    /// The ISO 4217 currency, or `nil` when the code is not in the list.
    public var currency: ISO4217Currency? { ISO4217Numeric.currency(numericCode: numericCode) }

    /// The currency in one sentence: `"EUR (Euro), numeric 978, 2 minor units"`.
    public var statements: [String] {
        let number = numericCode < 100 ? String(repeating: "0", count: numericCode < 10 ? 2 : 1) + "\(numericCode)" : "\(numericCode)"
        guard let currency else { return ["Currency \(number) is not an ISO 4217 currency"] }
        let units = currency.minorUnits.map { "\($0) minor unit\($0 == 1 ? "" : "s")" } ?? "no minor units defined"
        return ["\(currency.code) (\(currency.name)), numeric \(number), \(units)"]
    }
}
