/// A primary account number (card number).
///
/// It prints masked (first 6 / last 4) wherever it is interpolated, logged or dumped; the
/// digits themselves are reachable only through ``unmaskedDigits``, a name that shows in
/// review wherever it is used.
///
/// ```swift
/// let pan = PAN("5413330089010038")!
/// pan.masked         // "541333******0038"
/// pan.maskedLastFour // "************0038"
/// pan.scheme         // .mastercard
/// pan.isLuhnValid    // true
/// ```
public struct PAN: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The digits, for the few places that must have them (encryption at the reader).
    public let unmaskedDigits: String

    /// Accepts 12 to 19 decimal digits (ISO/IEC 7812); spaces and dashes between groups are
    /// ignored. Returns `nil` otherwise. The Luhn check is separate: see ``isLuhnValid``.
    public init?(_ text: String) {
        var digits = ""
        digits.reserveCapacity(19)
        for char in text.utf8 {
            switch char {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits.append(Character(Unicode.Scalar(char)))
            case UInt8(ascii: " "), UInt8(ascii: "-"): continue
            default: return nil
            }
        }
        guard (12...19).contains(digits.count) else { return nil }
        self.unmaskedDigits = digits
    }

    /// Reads tag `5A` (Application PAN, format cn: BCD digits padded with trailing `F`).
    /// Returns `nil` for a non-digit nibble before the padding or a wrong digit count.
    public init?(bcd bytes: some Collection<UInt8>) {
        var digits = ""
        var padded = false
        for byte in bytes {
            for nibble in [byte >> 4, byte & 0x0F] {
                if nibble == 0x0F {
                    padded = true
                } else if nibble <= 9, !padded {
                    digits.append(Character(Unicode.Scalar(UInt8(ascii: "0") + nibble)))
                } else {
                    return nil
                }
            }
        }
        self.init(digits)
    }

    /// Number of digits.
    public var count: Int { unmaskedDigits.utf8.count }

    /// First 6 and last 4 digits shown, the rest replaced by `mask`; for PANs shorter than
    /// 16 digits fewer leading digits show, so that at least 6 stay hidden.
    public func masked(with mask: Character = "*") -> String {
        PAN.mask(unmaskedDigits, keepingFirst: min(6, max(0, count - 10)), last: 4, with: mask)
    }

    /// ``masked(with:)`` with `*`.
    public var masked: String { masked() }

    /// Only the last 4 digits shown, the rest replaced by `mask`.
    public func maskedLastFour(with mask: Character = "*") -> String {
        PAN.mask(unmaskedDigits, keepingFirst: 0, last: 4, with: mask)
    }

    /// ``maskedLastFour(with:)`` with `*`.
    public var maskedLastFour: String { maskedLastFour() }

    /// The last four digits, as receipts print them.
    public var lastFour: String { String(unmaskedDigits.suffix(4)) }

    /// The first six digits: the issuer identification number (IIN/BIN).
    public var iin: String { String(unmaskedDigits.prefix(6)) }

    /// The card scheme the IIN belongs to.
    public var scheme: CardScheme { CardScheme(iin: unmaskedDigits) }

    /// Whether the last digit is the correct Luhn (mod 10) check digit.
    public var isLuhnValid: Bool { PAN.luhnCheck(unmaskedDigits) }

    /// Masked form (first 6 / last 4).
    public var description: String { masked }

    /// Masked form, so that `dump` and the debugger never show the digits.
    public var debugDescription: String { "PAN(\(masked))" }

    /// The Luhn (mod 10) check over a string of digits; `false` for empty text or any
    /// non-digit.
    public static func luhnCheck(_ digits: String) -> Bool {
        var sum = 0
        var double = false
        var seen = 0
        for char in digits.utf8.reversed() {
            guard char >= UInt8(ascii: "0"), char <= UInt8(ascii: "9") else { return false }
            var digit = Int(char - UInt8(ascii: "0"))
            if double {
                digit *= 2
                if digit > 9 { digit -= 9 }
            }
            sum += digit
            double.toggle()
            seen += 1
        }
        return seen > 0 && sum % 10 == 0
    }

    /// The check digit that makes `digits` + check digit pass ``luhnCheck(_:)``; `nil` for
    /// non-digit input.
    public static func luhnCheckDigit(for digits: String) -> Character? {
        guard digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return (0...9).lazy.map { Character(String($0)) }.first { luhnCheck(digits + String($0)) }
    }

    static func mask(_ digits: String, keepingFirst first: Int, last: Int, with mask: Character) -> String {
        let count = digits.count
        guard count > first + last else { return String(repeating: mask, count: count) }
        return String(digits.prefix(first)) + String(repeating: mask, count: count - first - last)
            + String(digits.suffix(last))
    }
}
