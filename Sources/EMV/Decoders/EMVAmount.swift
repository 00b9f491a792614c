/// An amount as EMV carries it: a count of the currency's minor units, without a decimal
/// point. `9F02`/`9F03` hold it as n 12 (6 bytes BCD); `81`/`9F04` as 4 binary bytes.
///
/// ```swift
/// let amount = try EMVAmount(numeric: [0x00, 0x00, 0x00, 0x00, 0x12, 0x34])
/// amount.minorUnits                 // 1234
/// amount.formatted(exponent: 2)     // "12.34"
/// ```
public struct EMVAmount: Sendable, Hashable {
    /// The amount in minor units (cents for EUR and USD, yen for JPY).
    public let minorUnits: Int64

    /// Creates an amount from minor units.
    public init(minorUnits: Int64) { self.minorUnits = minorUnits }

    /// Decodes an n 12 amount; throws unless it is 6 bytes of decimal digits.
    public init(numeric value: some Collection<UInt8>) throws(EMVValueError) {
        let bytes = Array(value)
        try checkLength(bytes, .fixed(6))
        minorUnits = try BCD.integer(bytes)
    }

    /// Decodes a 4-byte binary amount.
    public init(binary value: some Collection<UInt8>) throws(EMVValueError) {
        let bytes = Array(value)
        try checkLength(bytes, .fixed(4))
        minorUnits = bytes.reduce(Int64(0)) { $0 << 8 | Int64($1) }
    }

    /// The amount with a decimal point placed `exponent` digits from the right
    /// (`1234`, exponent 2 → `"12.34"`; exponent 0 → `"1234"`).
    public func formatted(exponent: Int) -> String {
        let exponent = max(0, min(exponent, 18))
        let digits = String(minorUnits.magnitude)
        let sign = minorUnits < 0 ? "-" : ""
        guard exponent > 0 else { return sign + digits }
        let padded = String(repeating: "0", count: max(0, exponent + 1 - digits.count)) + digits
        let split = padded.index(padded.endIndex, offsetBy: -exponent)
        return sign + padded[..<split] + "." + padded[split...]
    }

    /// The amount as text: with the currency's exponent and code when known
    /// (`"12.34 EUR"`), otherwise in minor units (`"1234 minor units"`).
    public func formatted(currency: ISO4217Currency?, exponent: Int? = nil) -> String {
        if let exponent = exponent ?? currency?.minorUnits {
            let text = formatted(exponent: exponent)
            return currency.map { "\(text) \($0.code)" } ?? text
        }
        return "\(minorUnits) minor units" + (currency.map { " of \($0.code)" } ?? "")
    }
}
