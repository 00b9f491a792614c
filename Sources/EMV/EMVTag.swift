/// A BER-TLV tag as EMV uses it: one to four bytes, held big-endian in a `UInt32`.
///
/// The raw value keeps the tag's bytes as written: `9F26` is `0x9F26`, `5F2A` is `0x5F2A`,
/// `95` is `0x95`. Tags are cheap to compare and hash, and print as upper-case hex.
///
/// ```swift
/// let cryptogram: EMVTag = 0x9F26
/// cryptogram.isConstructed   // false
/// EMVTag(hex: "5F2A")        // Transaction Currency Code
/// ```
public struct EMVTag: RawRepresentable, Hashable, Sendable, Comparable, ExpressibleByIntegerLiteral,
    CustomStringConvertible
{
    /// The tag's bytes, big-endian, without leading zero bytes.
    public let rawValue: UInt32

    /// Creates a tag from its big-endian bytes packed into an integer (`0x9F26`).
    @inlinable public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Creates a tag from an integer literal (`let tag: EMVTag = 0x9F26`).
    @inlinable public init(integerLiteral value: UInt32) { self.rawValue = value }

    /// Parses a tag from 2 to 8 hex digits (`"9F26"`); `nil` when the text is not a
    /// well-formed BER tag (wrong length, bad digits, or continuation bits that disagree
    /// with the number of bytes).
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count >= 2, digits.count <= 8, digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        var index = 0
        while index < digits.count {
            guard let hi = hexNibble(digits[index]), let lo = hexNibble(digits[index + 1]) else {
                return nil
            }
            bytes.append(hi << 4 | lo)
            index += 2
        }
        guard let tag = EMVTag(bytes: bytes) else { return nil }
        self = tag
    }

    /// Creates a tag from its encoded bytes; `nil` unless the bytes form exactly one
    /// well-formed tag (a first byte with low five bits `11111` announces subsequent bytes,
    /// each with bit 8 set but the last).
    public init?(bytes: some Collection<UInt8>) {
        let bytes = Array(bytes)
        guard let first = bytes.first, bytes.count <= 4 else { return nil }
        if first & 0x1F != 0x1F {
            guard bytes.count == 1 else { return nil }
        } else {
            guard bytes.count >= 2 else { return nil }
            for (offset, byte) in bytes.enumerated().dropFirst() {
                let isLast = offset == bytes.count - 1
                if isLast != (byte & 0x80 == 0) { return nil }
            }
        }
        self.rawValue = bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The number of bytes the tag occupies when encoded (1 to 4).
    @inlinable public var byteCount: Int {
        rawValue > 0xFF_FFFF ? 4 : rawValue > 0xFFFF ? 3 : rawValue > 0xFF ? 2 : 1
    }

    /// The tag's encoded bytes.
    public var bytes: [UInt8] {
        (0..<byteCount).reversed().map { UInt8(truncatingIfNeeded: rawValue >> (8 * UInt32($0))) }
    }

    /// The first byte of the encoded tag, which carries class and constructed bit.
    @inlinable public var firstByte: UInt8 {
        UInt8(truncatingIfNeeded: rawValue >> (8 * UInt32(byteCount - 1)))
    }

    /// Whether the tag denotes a constructed data object (bit 6 of the first byte), whose
    /// value is itself a sequence of TLVs.
    @inlinable public var isConstructed: Bool { firstByte & 0x20 != 0 }

    /// The tag class from bits 8-7 of the first byte.
    public var tagClass: TagClass { TagClass(rawValue: firstByte >> 6)! }

    /// Upper-case hex of the encoded tag, as EMV documents write it (`"9F26"`).
    public var hex: String {
        let value = rawValue
        return (0..<byteCount).reversed().map { shift in
            let byte = UInt8(truncatingIfNeeded: value >> (8 * UInt32(shift)))
            return String(hexDigits[Int(byte >> 4)]) + String(hexDigits[Int(byte & 0x0F)])
        }.joined()
    }

    /// Same as ``hex``.
    public var description: String { hex }

    /// Orders tags by raw value.
    @inlinable public static func < (lhs: EMVTag, rhs: EMVTag) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The four BER tag classes.
    public enum TagClass: UInt8, Sendable {
        /// Universal class (00).
        case universal = 0
        /// Application class (01), as in `5A`, `5F2A`.
        case application = 1
        /// Context-specific class (10), as in `9F26`, `82`.
        case contextSpecific = 2
        /// Private class (11), as in proprietary `DFxx` and `FF` tags.
        case `private` = 3
    }
}

private let hexDigits = Array("0123456789ABCDEF")

@inline(__always)
func hexNibble(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
    default: return nil
    }
}
