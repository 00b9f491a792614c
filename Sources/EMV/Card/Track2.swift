/// Track 2 data: from the magnetic stripe (`;PAN=YYMMSSS…?`) or the chip's Track 2
/// Equivalent Data (tag `57`, BCD with a `D` separator, padded with `F`).
///
/// It prints masked; the discretionary data never shows.
///
/// ```swift
/// let track = try Track2(bytes: tree[0x57]!)
/// track.pan.masked          // "541333******0038"
/// track.expiry              // 2029-12
/// track.serviceCode.isChip  // true (201)
/// ```
public struct Track2: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The card number.
    public let pan: PAN
    /// Expiry year and month.
    public let expiry: CardExpiry
    /// The three-digit service code.
    public let serviceCode: ServiceCode
    /// Issuer discretionary data (digits). Sensitive: never log or display it.
    public let discretionaryData: String

    /// Parses tag `57` (Track 2 Equivalent Data) or tag `9F6B` (contactless Track 2 Data).
    /// - Throws: ``Track2Error``.
    public init(bytes: some Collection<UInt8>) throws(Track2Error) {
        var text = ""
        text.reserveCapacity(bytes.count * 2)
        var padded = false
        for byte in bytes {
            for nibble in [byte >> 4, byte & 0x0F] {
                switch nibble {
                case 0...9 where !padded: text.append(Character(Unicode.Scalar(UInt8(ascii: "0") + nibble)))
                case 0x0D where !padded: text.append("=")
                case 0x0F: padded = true
                default: throw Track2Error.invalidCharacter
                }
            }
        }
        try self.init(fields: text)
    }

    /// Parses the magnetic-stripe form: optional start sentinel `;`, PAN, separator `=` (or
    /// `D`), YYMM, service code, discretionary data, optional end sentinel `?`.
    /// - Throws: ``Track2Error``.
    public init(string: String) throws(Track2Error) {
        var text = Substring(string)
        if text.hasPrefix(";") { text = text.dropFirst() }
        if text.hasSuffix("?") { text = text.dropLast() }
        try self.init(fields: String(text).replacingSeparator())
    }

    private init(fields text: String) throws(Track2Error) {
        guard let separator = text.firstIndex(of: "=") else { throw Track2Error.missingSeparator }
        let panText = String(text[..<separator])
        guard panText.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let pan = PAN(panText) else {
            throw Track2Error.invalidPAN
        }
        let rest = Array(text[text.index(after: separator)...].utf8)
        guard rest.count >= 7 else { throw Track2Error.truncated }
        guard rest.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { throw Track2Error.invalidCharacter }
        let digit = { (index: Int) in Int(rest[index] - 48) }
        guard let expiry = CardExpiry(year: 2000 + digit(0) * 10 + digit(1), month: digit(2) * 10 + digit(3))
        else { throw Track2Error.invalidExpiry }
        self.pan = pan
        self.expiry = expiry
        self.serviceCode = ServiceCode(digits: (UInt8(digit(4)), UInt8(digit(5)), UInt8(digit(6))))
        self.discretionaryData = String(decoding: rest[7...], as: UTF8.self)
    }

    /// PAN masked, expiry and service code shown, discretionary data replaced by `*`.
    public var masked: String {
        pan.masked + "=" + expiry.yymm + serviceCode.code + String(repeating: "*", count: discretionaryData.count)
    }

    /// Same as ``masked``.
    public var description: String { masked }
    /// Masked, so that `dump` and debuggers show no card data.
    public var debugDescription: String { "Track2(\(masked))" }
}

/// Why Track 2 data could not be read. Carries no card data.
public enum Track2Error: Error, Hashable, Sendable, CustomStringConvertible {
    /// No field separator (`=` or `D`).
    case missingSeparator
    /// The PAN is not 12 to 19 digits.
    case invalidPAN
    /// Fewer than the 7 digits of expiry and service code after the separator.
    case truncated
    /// The month is not 01–12.
    case invalidExpiry
    /// A nibble or character that is not a digit, separator or padding.
    case invalidCharacter

    /// One line for a developer.
    public var description: String {
        switch self {
        case .missingSeparator: "track 2: no field separator"
        case .invalidPAN: "track 2: the account number is not 12 to 19 digits"
        case .truncated: "track 2: expiry date and service code are incomplete"
        case .invalidExpiry: "track 2: the expiry month is not 01 to 12"
        case .invalidCharacter: "track 2: unexpected character"
        }
    }
}

/// A card's expiry: the card is valid through the last day of this month.
public struct CardExpiry: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
    /// Four-digit year.
    public let year: Int
    /// Month, 1–12.
    public let month: Int

    /// `nil` unless the month is 1–12.
    public init?(year: Int, month: Int) {
        guard (1...12).contains(month), (0...9999).contains(year) else { return nil }
        self.year = year
        self.month = month
    }

    /// Whether the card has expired at a date given as year and month.
    public func isExpired(atYear year: Int, month: Int) -> Bool {
        (self.year, self.month) < (year, month)
    }

    /// `YYMM`, as Track 2 carries it.
    public var yymm: String { twoDigits(year % 100) + twoDigits(month) }

    /// `MM/YY`, as a receipt prints it.
    public var display: String { twoDigits(month) + "/" + twoDigits(year % 100) }

    /// `YYYY-MM`.
    public var description: String { String(year) + "-" + twoDigits(month) }

    /// Earlier expiry first.
    public static func < (lhs: CardExpiry, rhs: CardExpiry) -> Bool { (lhs.year, lhs.month) < (rhs.year, rhs.month) }
}

/// The three-digit service code on Track 2 (ISO/IEC 7813).
public struct ServiceCode: Hashable, Sendable, CustomStringConvertible {
    /// The digits: interchange and technology, authorization processing, allowed services.
    public let digits: (UInt8, UInt8, UInt8)

    /// Creates a service code from its three digits.
    public init(digits: (UInt8, UInt8, UInt8)) { self.digits = digits }

    /// Parses three decimal digits.
    public init?(_ code: String) {
        let bytes = Array(code.utf8)
        guard bytes.count == 3, bytes.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        self.digits = (bytes[0] - 48, bytes[1] - 48, bytes[2] - 48)
    }

    /// The three digits as text.
    public var code: String { "\(digits.0)\(digits.1)\(digits.2)" }

    /// Whether the card has a chip that must be used where the terminal supports it
    /// (first digit 2 or 6): a swipe of such a card is a fallback.
    public var isChip: Bool { digits.0 == 2 || digits.0 == 6 }

    /// Statements explaining each digit.
    public var statements: [String] {
        let first: String =
            switch digits.0 {
            case 1: "International interchange OK"
            case 2: "International interchange, use IC (chip) where feasible"
            case 5: "National interchange only, except under bilateral agreement"
            case 6: "National interchange only, use IC (chip) where feasible"
            case 7: "No interchange except under bilateral agreement (closed loop)"
            case 9: "Test card"
            default: "Reserved interchange digit \(digits.0)"
            }
        let second: String =
            switch digits.1 {
            case 0: "Normal authorization"
            case 2: "Contact issuer via online means"
            case 4: "Contact issuer via online means except under bilateral agreement"
            default: "Reserved authorization digit \(digits.1)"
            }
        let third: String =
            switch digits.2 {
            case 0: "No restrictions, PIN required"
            case 1: "No restrictions"
            case 2: "Goods and services only"
            case 3: "ATM only, PIN required"
            case 4: "Cash only"
            case 5: "Goods and services only, PIN required"
            case 6: "No restrictions, prompt for PIN if PIN pad present"
            case 7: "Goods and services only, prompt for PIN if PIN pad present"
            default: "Reserved services digit \(digits.2)"
            }
        return [first, second, third]
    }

    /// The digits as text.
    public var description: String { code }

    /// Digit-wise equality.
    public static func == (lhs: ServiceCode, rhs: ServiceCode) -> Bool { lhs.digits == rhs.digits }

    /// Hashes the digits.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(digits.0)
        hasher.combine(digits.1)
        hasher.combine(digits.2)
    }
}

private func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

extension String {
    fileprivate func replacingSeparator() -> String {
        String(map { $0 == "D" || $0 == "d" ? "=" : $0 })
    }
}
