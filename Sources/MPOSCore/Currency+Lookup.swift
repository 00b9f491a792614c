extension Currency {
    /// Looks a currency up by its alpha code, ignoring ASCII case (`"eur"`, `"EUR"`);
    /// `nil` for anything that is not an active ISO 4217 code.
    public init?(code: some StringProtocol) {
        guard let key = Self.normalizedCode(code), let currency = Self.byCode[key] else {
            return nil
        }
        self = currency
    }

    /// Looks a currency up by its ISO 4217 numeric code (`978` is the euro); `nil` when
    /// no active currency has that number.
    public init?(numericCode: Int) {
        guard let currency = Self.byNumericCode[numericCode] else { return nil }
        self = currency
    }

    /// The table indexed by alpha code, built once on first use.
    private static let byCode: [String: Currency] = Dictionary(
        uniqueKeysWithValues: all.map { ($0.code, $0) })

    /// The table indexed by numeric code, built once on first use.
    private static let byNumericCode: [Int: Currency] = Dictionary(
        uniqueKeysWithValues: all.map { ($0.numericCode, $0) })

    /// Upper-cases three ASCII letters; `nil` for any other input. Deliberately ASCII-only,
    /// so that Unicode case mapping (a dotless `ı` upper-casing to `I`) cannot turn
    /// something that is not a code into one.
    private static func normalizedCode(_ text: some StringProtocol) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(3)
        for byte in text.utf8 {
            guard bytes.count < 3 else { return nil }
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): bytes.append(byte)
            case UInt8(ascii: "a")...UInt8(ascii: "z"): bytes.append(byte - 0x20)
            default: return nil
            }
        }
        guard bytes.count == 3 else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension Currency {
    /// Looks a currency up by its alpha code like ``init(code:)``, but throws
    /// ``MPOSError/unknownCurrency`` instead of returning `nil`.
    public init(validatingCode code: some StringProtocol) throws(MPOSError) {
        guard let currency = Currency(code: code) else {
            throw MPOSError.unknownCurrency.withMessage(
                "Not an active ISO 4217 currency code (\(code.utf8.count) bytes given).")
        }
        self = currency
    }
}
