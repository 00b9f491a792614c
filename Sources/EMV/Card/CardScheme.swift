/// The payment network a card belongs to, told from the leading digits of its number.
public enum CardScheme: String, Sendable, CaseIterable, Codable {
    /// Visa: IIN 4.
    case visa
    /// Mastercard: 51–55 and 2221–2720.
    case mastercard
    /// American Express: 34, 37.
    case amex
    /// Discover: 6011, 644–649, 65.
    case discover
    /// Diners Club International: 300–305, 3095, 36, 38–39.
    case diners
    /// JCB: 3528–3589.
    case jcb
    /// UnionPay: 62, 81.
    case unionPay
    /// Maestro: 50, 56–58, 6304, 6759, 676770, 676774, 639.
    case maestro
    /// Mir: 2200–2204.
    case mir
    /// Not recognised.
    case unknown

    /// The scheme of a card number or its leading digits (at least 4 for a sure answer,
    /// 6 for Maestro's 6-digit ranges). Non-digits give ``unknown``.
    public init(iin digits: String) {
        let prefix = digits.utf8.prefix(6)
        guard !prefix.isEmpty, prefix.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
            self = .unknown
            return
        }
        func leading(_ n: Int) -> Int? {
            guard prefix.count >= n else { return nil }
            return prefix.prefix(n).reduce(0) { $0 * 10 + Int($1 - 48) }
        }
        // Most specific ranges first.
        if let six = leading(6), six == 676770 || six == 676774 {
            self = .maestro
        } else if let four = leading(4), four == 6011 {
            self = .discover
        } else if let four = leading(4), four == 3095 {
            self = .diners
        } else if let four = leading(4), (3528...3589).contains(four) {
            self = .jcb
        } else if let four = leading(4), (2221...2720).contains(four) {
            self = .mastercard
        } else if let four = leading(4), (2200...2204).contains(four) {
            self = .mir
        } else if let four = leading(4), four == 6304 || four == 6759 {
            self = .maestro
        } else if let three = leading(3), (644...649).contains(three) {
            self = .discover
        } else if let three = leading(3), (300...305).contains(three) {
            self = .diners
        } else if let three = leading(3), three == 639 {
            self = .maestro
        } else if let two = leading(2) {
            switch two {
            case 34, 37: self = .amex
            case 36, 38, 39: self = .diners
            case 51...55: self = .mastercard
            case 50, 56...58: self = .maestro
            case 62, 81: self = .unionPay
            case 65: self = .discover
            case 40...49: self = .visa
            default: self = .unknown
            }
        } else {
            self = digits.hasPrefix("4") ? .visa : .unknown
        }
    }

    /// The name printed on receipts and terminals.
    public var displayName: String {
        switch self {
        case .visa: "Visa"
        case .mastercard: "Mastercard"
        case .amex: "American Express"
        case .discover: "Discover"
        case .diners: "Diners Club"
        case .jcb: "JCB"
        case .unionPay: "UnionPay"
        case .maestro: "Maestro"
        case .mir: "Mir"
        case .unknown: "Unknown"
        }
    }
}
