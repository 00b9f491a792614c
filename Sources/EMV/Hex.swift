/// Hex text to bytes and back, as EMV tools and logs write them.
public enum Hex {
    /// Upper-case hex of the bytes, no separators (`[0x9F, 0x26]` → `"9F26"`).
    ///
    /// Inlinable, so that callers in other modules get a version specialized for their
    /// collection instead of the generic one (the SDK and the gateway hex-encode card data on
    /// every payment).
    @inlinable
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(hexUpperDigits[Int(byte >> 4)])
            out.append(hexUpperDigits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes hex text. Spaces, tabs, newlines and colons between byte pairs are ignored,
    /// so `"9F 26"`, `"9f:26"` and a multi-line dump all decode.
    ///
    /// - Throws: ``HexError`` naming the offending character and its offset in the text,
    ///   or an odd number of digits.
    public static func decode(_ text: String) throws(HexError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count / 2)
        var pending: UInt8? = nil
        for (offset, char) in text.utf8.enumerated() {
            switch char {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"),
                UInt8(ascii: ":"):
                continue
            default:
                guard let nibble = hexNibble(char) else {
                    throw HexError.invalidCharacter(offset: offset, character: Character(Unicode.Scalar(char)))
                }
                if let high = pending {
                    out.append(high << 4 | nibble)
                    pending = nil
                } else {
                    pending = nibble
                }
            }
        }
        if pending != nil { throw HexError.oddNumberOfDigits }
        return out
    }
}

/// Why hex text could not be decoded.
public enum HexError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A character that is neither a hex digit nor an allowed separator, at a UTF-8 offset.
    case invalidCharacter(offset: Int, character: Character)
    /// The digits do not pair up into whole bytes.
    case oddNumberOfDigits

    /// One line for a person.
    public var description: String {
        switch self {
        case .invalidCharacter(let offset, let character):
            let shown = character.isASCII && !character.isWhitespace ? "'\(character)'" : "a non-hex character"
            return "invalid hex: \(shown) at character offset \(offset)"
        case .oddNumberOfDigits:
            return "invalid hex: odd number of digits (bytes are two digits each)"
        }
    }
}

@usableFromInline let hexUpperDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
