/// An ISO 4217 currency: its three-letter alpha code, numeric code, English name and the
/// number of decimal places (minor units) amounts in it carry.
///
/// Values come only from the generated ISO 4217 table, so every `Currency` is a real,
/// active currency or fund. Look one up by code, or use a named member:
///
/// ```swift
/// Currency(code: "eur")        // .eur
/// Currency(numericCode: 392)   // .jpy
/// Currency.bhd.minorUnits      // 3
/// Currency.xau.minorUnits      // nil: gold has no minor units
/// ```
///
/// Two currencies are equal when their alpha codes are equal. A currency encodes as its
/// alpha code string (`"EUR"`) and decodes from one, case-insensitively.
public struct Currency: Hashable, Sendable, CustomStringConvertible {
    /// The upper-case three-letter alpha code, such as `"EUR"`.
    public let code: String

    /// The ISO 4217 numeric code, such as `978` for the euro (EMV tag 5F2A carries it).
    public let numericCode: Int

    /// The number of decimal places in the currency's minor unit: 0 (JPY), 2 (EUR),
    /// 3 (BHD) or 4 (CLF); `nil` when ISO 4217 defines none ("N.A."), as for precious
    /// metals, bond-market units, SDRs, XTS and XXX. `Money` rejects such currencies.
    public let minorUnits: Int?

    /// The currency's English name as ISO 4217 spells it, such as `"Euro"` or `"Yen"`.
    public let name: String

    /// Whether ISO 4217 marks the entry as a fund (an accounting unit such as CLF or
    /// USN) rather than a circulating currency.
    public let isFund: Bool

    /// Creates a table entry; only the generated ISO 4217 table calls this.
    init(code: String, numericCode: Int, minorUnits: Int?, name: String, isFund: Bool = false) {
        self.code = code
        self.numericCode = numericCode
        self.minorUnits = minorUnits
        self.name = name
        self.isFund = isFund
    }

    /// The alpha code, such as `"EUR"`.
    public var description: String { code }

    /// Compares alpha codes.
    public static func == (lhs: Currency, rhs: Currency) -> Bool { lhs.code == rhs.code }

    /// Hashes the alpha code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
