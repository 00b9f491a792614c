/// Why a data element's value could not be decoded.
///
/// The ``description`` reads as a statement (`"malformed: expected 5 bytes, got 3"`), which
/// is what ``TagExplainer`` returns for a value it cannot decode.
public enum EMVValueError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The value has a byte count the element does not allow.
    case wrongLength(expected: LengthRule, got: Int)
    /// A numeric (`n`) value holds a nibble that is not a decimal digit, in the byte at this
    /// offset of the value.
    case invalidDigit(byteOffset: Int, byte: UInt8)
    /// The value is well formed but means nothing valid (a month 13, a time 25:00).
    case invalidValue(String)

    /// One line for a person, starting with `malformed:`.
    public var description: String {
        switch self {
        case .wrongLength(let expected, let got):
            let wanted: String
            switch expected {
            case .fixed(let count): wanted = count == 1 ? "1 byte" : "\(count) bytes"
            case .range(let range): wanted = "\(range.lowerBound)-\(range.upperBound) bytes"
            case .upTo(let max): wanted = "at most \(max) bytes"
            }
            return "malformed: expected \(wanted), got \(got)"
        case .invalidDigit(let offset, let byte):
            return "malformed: byte \(offset + 1) (\(Hex.encode([byte]))) is not two decimal digits"
        case .invalidValue(let reason):
            return "malformed: \(reason)"
        }
    }
}

/// Checks a value's length, throwing ``EMVValueError/wrongLength(expected:got:)``.
func checkLength(_ bytes: [UInt8], _ rule: LengthRule) throws(EMVValueError) {
    guard rule.allows(bytes.count) else { throw .wrongLength(expected: rule, got: bytes.count) }
}
