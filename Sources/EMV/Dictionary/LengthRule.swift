/// The length a data element's value may have, always counted in **bytes** of the value
/// (not digits, not characters of hex).
///
/// EMV Book 3 writes numeric lengths in digits (`n 12`); this type stores the encoded size
/// instead, so `n 12` is `.fixed(6)` and `n 3` (a currency code) is `.fixed(2)`.
public enum LengthRule: Sendable, Hashable, CustomStringConvertible {
    /// Exactly this many bytes.
    case fixed(Int)
    /// Any byte count in the closed range.
    case range(ClosedRange<Int>)
    /// Any byte count from zero up to and including the maximum ("var. up to N").
    case upTo(Int)

    /// The smallest number of bytes allowed.
    public var minimum: Int {
        switch self {
        case .fixed(let count): count
        case .range(let range): range.lowerBound
        case .upTo: 0
        }
    }

    /// The largest number of bytes allowed.
    public var maximum: Int {
        switch self {
        case .fixed(let count): count
        case .range(let range): range.upperBound
        case .upTo(let max): max
        }
    }

    /// Whether a value of `count` bytes satisfies the rule.
    public func allows(_ count: Int) -> Bool { count >= minimum && count <= maximum }

    /// The rule as documents write it, in bytes: `"8"`, `"5-16"`, `"up to 252"`.
    public var description: String {
        switch self {
        case .fixed(let count): "\(count)"
        case .range(let range): "\(range.lowerBound)-\(range.upperBound)"
        case .upTo(let max): "up to \(max)"
        }
    }
}
