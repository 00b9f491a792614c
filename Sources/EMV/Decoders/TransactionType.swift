/// Transaction Type (tag `9C`, n 2): the first two digits of the ISO 8583:1987 processing
/// code, which say what kind of financial transaction this is.
public struct TransactionType: Sendable, Hashable, CustomStringConvertible {
    /// The two-digit code (`0` for goods and services, `20` for a refund).
    public let code: Int

    /// Goods and services (`00`).
    public static let goodsAndServices = TransactionType(code: 0)
    /// Cash (`01`).
    public static let cash = TransactionType(code: 1)
    /// Goods and services with cashback (`09`).
    public static let cashback = TransactionType(code: 9)
    /// Refund (`20`).
    public static let refund = TransactionType(code: 20)

    /// Creates a type from its code.
    public init(code: Int) { self.code = code }

    /// Decodes a Transaction Type value; throws unless it is one byte of two decimal digits.
    public init(_ value: some Collection<UInt8>) throws(EMVValueError) {
        let bytes = Array(value)
        try checkLength(bytes, .fixed(1))
        code = try BCD.twoDigits(bytes[0], at: 0)
    }

    /// The meaning, or `nil` for a code this table does not know.
    public var meaning: String? {
        switch code {
        case 0: "goods and services"
        case 1: "cash"
        case 2: "debit adjustment"
        case 9: "goods and services with cashback"
        case 10: "non-cash financial instrument"
        case 11: "quasi-cash and scrip"
        case 20: "refund"
        case 21: "deposit"
        case 22: "credit adjustment"
        case 30: "available funds inquiry"
        case 31: "balance inquiry"
        case 40: "cardholder accounts transfer"
        case 50: "payment"
        default: nil
        }
    }

    /// `"00 goods and services"`, or `"45 (not a known transaction type)"`.
    public var description: String {
        let digits = code < 10 ? "0\(code)" : "\(code)"
        return meaning.map { "\(digits) \($0)" } ?? "\(digits) (not a known transaction type)"
    }

    /// The type as a sentence.
    public var statements: [String] { ["Transaction type " + description] }
}
