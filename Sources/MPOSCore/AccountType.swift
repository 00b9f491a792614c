/// The account the cardholder chose at the reader (EMV tag 5F57, Account Type), as the Heft
/// seed's readers ask with `EFT_ACCOUNT_TYPE_SELECTION` (0x0032): default, credit,
/// cheque/debit or savings.
public enum AccountType: UInt8, Sendable, Hashable, CaseIterable, Codable {
    /// No particular account: the card's default.
    case `default` = 0x00
    /// Savings.
    case savings = 0x10
    /// Cheque or debit.
    case chequeDebit = 0x20
    /// Credit.
    case credit = 0x30

    /// The name an app or a receipt shows.
    public var name: String {
        switch self {
        case .default: "Default"
        case .savings: "Savings"
        case .chequeDebit: "Cheque/Debit"
        case .credit: "Credit"
        }
    }

    /// The tag's value bytes: one byte, n 2.
    public var tagValue: [UInt8] { [rawValue] }

    /// The account of a 5F57 value, nil for another length or an unassigned code.
    public init?(tagValue: [UInt8]) {
        guard tagValue.count == 1, let type = AccountType(rawValue: tagValue[0]) else { return nil }
        self = type
    }
}
