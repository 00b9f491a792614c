/// When a CV Rule applies: the second byte of a CV Rule or of the CVM Results, coded as in
/// EMV Book 3 Annex C3. Conditions 06-09 compare the amount with the CVM List's X or Y.
public enum CVMCondition: Sendable, Hashable {
    /// `00`.
    case always
    /// `01`.
    case unattendedCash
    /// `02`.
    case notUnattendedCashNotManualCashNotCashback
    /// `03`.
    case terminalSupportsCVM
    /// `04`.
    case manualCash
    /// `05`.
    case purchaseWithCashback
    /// `06`.
    case applicationCurrencyUnderX
    /// `07`.
    case applicationCurrencyOverX
    /// `08`.
    case applicationCurrencyUnderY
    /// `09`.
    case applicationCurrencyOverY
    /// `80`-`FF`: reserved for individual payment systems.
    case paymentSystem(UInt8)
    /// `0A`-`7F`: reserved for future use.
    case reserved(UInt8)

    /// Reads a condition code.
    public init(code: UInt8) {
        switch code {
        case 0x00: self = .always
        case 0x01: self = .unattendedCash
        case 0x02: self = .notUnattendedCashNotManualCashNotCashback
        case 0x03: self = .terminalSupportsCVM
        case 0x04: self = .manualCash
        case 0x05: self = .purchaseWithCashback
        case 0x06: self = .applicationCurrencyUnderX
        case 0x07: self = .applicationCurrencyOverX
        case 0x08: self = .applicationCurrencyUnderY
        case 0x09: self = .applicationCurrencyOverY
        case 0x80...0xFF: self = .paymentSystem(code)
        default: self = .reserved(code)
        }
    }

    /// The condition as a lower-case clause ("if terminal supports the CVM"); conditions on
    /// X or Y name the amount when given.
    public func phrase(x: String? = nil, y: String? = nil) -> String {
        switch self {
        case .always: "always"
        case .unattendedCash: "if unattended cash"
        case .notUnattendedCashNotManualCashNotCashback:
            "if not unattended cash and not manual cash and not purchase with cashback"
        case .terminalSupportsCVM: "if terminal supports the CVM"
        case .manualCash: "if manual cash"
        case .purchaseWithCashback: "if purchase with cashback"
        case .applicationCurrencyUnderX: "if transaction is in the application currency and is under X" + named(x)
        case .applicationCurrencyOverX: "if transaction is in the application currency and is over X" + named(x)
        case .applicationCurrencyUnderY: "if transaction is in the application currency and is under Y" + named(y)
        case .applicationCurrencyOverY: "if transaction is in the application currency and is over Y" + named(y)
        case .paymentSystem(let code): "if payment system-specific condition \(Hex.encode([code])) is met"
        case .reserved(let code): "if condition \(Hex.encode([code])) (reserved for future use) is met"
        }
    }

    private func named(_ amount: String?) -> String { amount.map { " (\($0))" } ?? " value" }
}
