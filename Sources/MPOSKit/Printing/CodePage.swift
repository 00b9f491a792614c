import Foundation
import PrinterCodePages

/// A printer's single-byte character set: ASCII in 0x00...0x7F and the code page's own
/// characters in 0x80...0xFF.
///
/// Text reaches the printer through ``encode(_:)``: a character the page has is sent as its
/// byte; one it lacks is transliterated by a fixed table (`"ł"` → `"l"`, `"—"` → `"-"`,
/// curly quotes → ASCII quotes, `"€"` → `"EUR"` where the page has no euro sign), then by its
/// base letter (`"ő"` → `"o"`); anything left becomes `"?"` and is reported, never dropped.
///
/// ```swift
/// let result = CodePage.cp858.encode("Café € 5")
/// result.bytes            // 43 61 66 82 20 D5 20 35
/// result.unmapped         // []
/// ```
public struct CodePage: Sendable, Hashable, CustomStringConvertible {
    /// The page's name, such as `"CP858"`.
    public let name: String
    /// The Unicode scalar of each byte 0x80...0xFF.
    let upper: [UInt32]
    /// Unicode scalar to byte, for the upper half.
    private let reverse: [UInt32: UInt8]

    init(name: String, upper: [UInt32]) {
        self.name = name
        self.upper = upper
        var reverse: [UInt32: UInt8] = [:]
        for (index, scalar) in upper.enumerated() { reverse[scalar] = UInt8(0x80 + index) }
        self.reverse = reverse
    }

    /// IBM PC code page 437 (ESC/POS table 0), the factory default of most printers. It has
    /// ä ö ü ß é but no euro sign.
    public static let cp437 = CodePage(name: "CP437", upper: CodePageTables.cp437)
    /// Code page 850 (Latin 1), which Datecs printers select with `ESC u 1`; no euro sign.
    public static let cp850 = CodePage(name: "CP850", upper: CodePageTables.cp850)
    /// Code page 858 (ESC/POS table 19): code page 850 with the euro sign at 0xD5.
    public static let cp858 = CodePage(name: "CP858", upper: CodePageTables.cp858)

    /// The page's name.
    public var description: String { name }

    /// The character printed for `byte`.
    public func character(for byte: UInt8) -> Character {
        let scalar = byte < 0x80 ? UInt32(byte) : upper[Int(byte) - 0x80]
        return Character(Unicode.Scalar(scalar) ?? "?")
    }

    /// The bytes of `text` in this page, and the characters that had no mapping and were
    /// printed as `"?"` (each once, in order of first appearance).
    ///
    /// Control characters (such as ESC) are never passed through: text cannot smuggle a
    /// printer command into the job.
    public func encode(_ text: String) -> (bytes: [UInt8], unmapped: [Character]) {
        var bytes: [UInt8] = []
        var unmapped: [Character] = []
        for character in text {
            if let byte = byte(for: character) {
                bytes.append(byte)
            } else if let replacement = transliteration(of: character) {
                bytes.append(contentsOf: replacement)
            } else {
                bytes.append(0x3F)
                if !unmapped.contains(character) { unmapped.append(character) }
            }
        }
        return (bytes, unmapped)
    }

    /// The byte of a character this page has, or `nil`.
    func byte(for character: Character) -> UInt8? {
        let scalars = character.unicodeScalars
        guard scalars.count == 1, let scalar = scalars.first?.value else { return nil }
        if scalar >= 0x20 && scalar < 0x7F { return UInt8(scalar) }
        return reverse[scalar]
    }

    /// The fallback table, then the character's base letter, each only when the page has
    /// every byte of the result.
    private func transliteration(of character: Character) -> [UInt8]? {
        var candidates: [String] = []
        if let replacement = Self.fallback[character] { candidates.append(replacement) }
        let base = String(character).decomposedStringWithCanonicalMapping.unicodeScalars.first
        if let base, base.value < 0x7F, base.value >= 0x20 { candidates.append(String(base)) }
        for candidate in candidates {
            let bytes = candidate.compactMap { byte(for: $0) }
            if bytes.count == candidate.count { return bytes }
        }
        return nil
    }

    /// Characters a receipt may carry that a code page often lacks, and what prints instead.
    /// Consulted only when the page has no byte for the character itself.
    public static let fallback: [Character: String] = [
        "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ø": "o", "Ø": "O", "œ": "oe", "Œ": "OE",
        "æ": "ae", "Æ": "AE", "ß": "ss", "ı": "i", "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th",
        "—": "-", "–": "-", "‐": "-", "‑": "-", "−": "-",
        "‘": "'", "’": "'", "‚": "'", "‹": "<", "›": ">",
        "“": "\"", "”": "\"", "„": "\"", "«": "\"", "»": "\"",
        "…": "...", "•": "*", "·": ".", "€": "EUR", "£": "GBP", "¥": "JPY", "™": "TM", "©": "(C)",
        "®": "(R)", "×": "x", "\u{00A0}": " ", "\u{2009}": " ", "\u{202F}": " ",
    ]
}
