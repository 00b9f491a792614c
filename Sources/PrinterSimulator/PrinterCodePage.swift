import PrinterCodePages

/// A single-byte character table that a printer selects with `ESC t n` (Datecs: `ESC u n`).
///
/// Bytes 0x20–0x7E are ASCII in every supported page; the upper half differs per page and is
/// kept as data (Unicode scalar values, one per byte from 0x80 to 0xFF).
public enum PrinterCodePage: Sendable, Equatable {
    /// PC437 (USA, standard Europe), the power-on page, `ESC t 0`.
    case pc437
    /// PC850 (multilingual Latin-1), `ESC t 2`; Datecs selects it with `ESC u 1`.
    case pc850
    /// PC858 (multilingual Latin-1 with the euro sign at 0xD5), `ESC t 19`.
    case pc858

    /// The page that `ESC t n` selects, or nil when the emulator does not have the page.
    public init?(escPosNumber n: UInt8) {
        switch n {
        case 0: self = .pc437
        case 2: self = .pc850
        case 19: self = .pc858
        default: return nil
        }
    }

    /// The page that Datecs' `ESC u n` selects (0 = CP437, 1 = CP850), or nil for one the
    /// emulator does not have.
    public init?(datecsNumber n: UInt8) {
        switch n {
        case 0: self = .pc437
        case 1: self = .pc850
        default: return nil
        }
    }

    /// The `n` of `ESC t n` that selects this page.
    public var escPosNumber: UInt8 {
        switch self {
        case .pc437: 0
        case .pc850: 2
        case .pc858: 19
        }
    }

    /// The character a printable byte (0x20 or above, not 0x7F) stands for in this page.
    public func character(for byte: UInt8) -> Character {
        if byte < 0x80 { return Character(Unicode.Scalar(byte)) }
        let table = switch self {
        case .pc437: CodePageTables.cp437
        case .pc850: CodePageTables.cp850
        case .pc858: CodePageTables.cp858
        }
        return Character(Unicode.Scalar(table[Int(byte) - 0x80]) ?? "?")
    }

    /// Decodes a run of printable bytes.
    public func decode(_ bytes: some Sequence<UInt8>) -> String {
        var text = ""
        for byte in bytes { text.append(character(for: byte)) }
        return text
    }
}
