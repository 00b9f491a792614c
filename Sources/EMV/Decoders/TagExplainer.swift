/// Explains a data element's value in words, one sentence per set bit or fact, by handing
/// it to the decoder for its tag.
///
/// ```swift
/// TagExplainer.explain(0x95, value: [0x00, 0x00, 0x08, 0x00, 0x00])
/// // ["PIN entry required, PIN pad present, but PIN was not entered"]
/// TagExplainer.explain(0x9F02, value: amount, context: { tlvs[$0] })
/// // ["Amount: 12.34 EUR"] — the currency comes from 5F2A in the context
/// ```
///
/// It never traps or throws: a value the decoder rejects yields one statement that starts
/// with `malformed:` (`"malformed: expected 5 bytes, got 3"`), and a tag without a decoder
/// yields no statements.
public enum TagExplainer {
    /// Statements about `value` as the value of `tag`.
    ///
    /// - Parameters:
    ///   - tag: The data element's tag.
    ///   - value: The value bytes, without tag and length.
    ///   - context: Looks up other data elements of the same transaction, so that amounts
    ///     find their currency (`5F2A`, `5F36`, `9F42`, `9F44`) and the expiry date can be
    ///     compared with the transaction date (`9A`).
    /// - Returns: Sentences, or an empty array when no decoder knows `tag`.
    public static func explain(
        _ tag: EMVTag, value: some Collection<UInt8>, context: ((EMVTag) -> [UInt8]?)? = nil
    ) -> [String] {
        let bytes = Array(value)
        let lookup: (EMVTag) -> [UInt8]? = { context?($0) }
        do {
            return try decode(tag, bytes, lookup) ?? []
        } catch {
            return [error.description]
        }
    }

    /// Whether ``explain(_:value:context:)`` has a decoder for `tag`.
    public static func hasDecoder(for tag: EMVTag) -> Bool {
        // Every decoder rejects an empty value, so only an unknown tag decodes to nil.
        do { return try decode(tag, [], { _ in nil }) != nil } catch { return true }
    }

    private static let terminalAmounts: Set<EMVTag> = [0x9F02, 0x9F03, 0xDF8123, 0xDF8124, 0xDF8125, 0xDF8126, 0x9F7B]
    private static let cardAmounts: Set<EMVTag> = [0x9F5D, 0xCA, 0xCB, 0x9F50, 0xDF8104, 0xDF8105]
    private static let actionCodes: Set<EMVTag> = [0x9F0D, 0x9F0E, 0x9F0F, 0xDF8120, 0xDF8121, 0xDF8122]

    /// The statements, `nil` when no decoder knows the tag; throws the decoder's error.
    private static func decode(
        _ tag: EMVTag, _ bytes: [UInt8], _ context: (EMVTag) -> [UInt8]?
    ) throws(EMVValueError) -> [String]? {
        switch tag.rawValue {
        case 0x95: return try TerminalVerificationResults(bytes).statements
        case _ where actionCodes.contains(tag):
            // Issuer and terminal action codes use the TVR's bit layout.
            return try TerminalVerificationResults(bytes).statements
        case 0x9B: return try TransactionStatusInformation(bytes).statements
        case 0x82: return try ApplicationInterchangeProfile(bytes).statements
        case 0x9F07: return try ApplicationUsageControl(bytes).statements
        case 0x9F33: return try TerminalCapabilities(bytes).statements
        case 0x9F40: return try AdditionalTerminalCapabilities(bytes).statements
        case 0x9F27: return try CryptogramInformationData(bytes).statements
        case 0x9F35: return try TerminalType(bytes).statements
        case 0x9F34: return try CVMResults(bytes).statements
        case 0x8E:
            let list = try CVMList(bytes)
            let (currency, exponent) = currency(context, code: 0x9F42, exponent: 0x9F44, orCode: 0x5F2A, orExponent: 0x5F36)
            return list.statements(currencyExponent: exponent ?? currency?.minorUnits, currencyCode: currency?.code)
        case 0x9C: return try TransactionType(bytes).statements
        case 0x9A: return try ["Transaction date: " + EMVDate(bytes).statements[0]]
        case 0x5F25: return try ["Effective from " + EMVDate(bytes).statements[0]]
        case 0x5F24:
            let expiry = try EMVDate(bytes)
            var out = ["Expires on " + expiry.statements[0]]
            if let raw = context(0x9A), let today = try? EMVDate(raw), today > expiry {
                out.append("The application had expired on the transaction date, \(today)")
            }
            return out
        case 0x9F21: return try ["Transaction time: " + EMVTime(bytes).description]
        case 0x5F2A, 0x9F42, 0x9F3C, 0xC9: return try CurrencyCode(bytes).statements
        case 0x9F1A, 0x5F28, 0xC8, 0x9F57: return try CountryCode(bytes).statements
        case 0x5F36, 0x9F44, 0x9F3D:
            try checkLength(bytes, .fixed(1))
            let exponent = try BCD.integer(bytes)
            return ["\(exponent) digit\(exponent == 1 ? "" : "s") after the decimal point"]
        case _ where terminalAmounts.contains(tag):
            let amount = try EMVAmount(numeric: bytes)
            let (currency, exponent) = currency(context, code: 0x5F2A, exponent: 0x5F36, orCode: nil, orExponent: nil)
            return ["Amount: " + amount.formatted(currency: currency, exponent: exponent)]
        case _ where cardAmounts.contains(tag):
            let amount = try EMVAmount(numeric: bytes)
            let (currency, exponent) = currency(context, code: 0x9F42, exponent: 0x9F44, orCode: 0x5F2A, orExponent: 0x5F36)
            return ["Amount: " + amount.formatted(currency: currency, exponent: exponent)]
        case 0x81, 0x9F04:
            let amount = try EMVAmount(binary: bytes)
            let (currency, exponent) = currency(context, code: 0x5F2A, exponent: 0x5F36, orCode: nil, orExponent: nil)
            return ["Amount: " + amount.formatted(currency: currency, exponent: exponent)]
        case 0x9F3A:
            let amount = try EMVAmount(binary: bytes)
            let (currency, exponent) = currency(context, code: 0x9F3C, exponent: 0x9F3D, orCode: nil, orExponent: nil)
            return ["Amount: " + amount.formatted(currency: currency, exponent: exponent)]
        default:
            return nil
        }
    }

    /// The currency and exponent named in the context, trying the first pair of tags, then
    /// the second. Malformed context values count as absent.
    private static func currency(
        _ context: (EMVTag) -> [UInt8]?, code: EMVTag, exponent: EMVTag, orCode: EMVTag?, orExponent: EMVTag?
    ) -> (ISO4217Currency?, Int?) {
        func currencyAt(_ tag: EMVTag?) -> ISO4217Currency? {
            guard let tag, let raw = context(tag) else { return nil }
            return (try? CurrencyCode(raw))?.currency
        }
        func exponentAt(_ tag: EMVTag?) -> Int? {
            guard let tag, let raw = context(tag), raw.count == 1, let value = try? BCD.integer(raw) else { return nil }
            return Int(value)
        }
        if let first = currencyAt(code) { return (first, exponentAt(exponent)) }
        if let second = currencyAt(orCode) { return (second, exponentAt(orExponent)) }
        return (nil, exponentAt(exponent) ?? exponentAt(orExponent))
    }
}
