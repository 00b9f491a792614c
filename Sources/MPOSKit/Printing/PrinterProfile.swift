/// What the SDK needs to know about a receipt printer: its paper, its columns per font, its
/// code page and how to select it, and whether it can cut.
///
/// ```swift
/// let bytes = receipt.escPos(.customer, profile: .paper80mm)
/// ```
///
/// The Datecs DPP-250 (``datecsDPP250``) speaks a dialect of ESC/POS: it selects its code
/// table with `ESC u n` (Datecs' numbering: 0 = CP437, 1 = CP850) instead of `ESC t n`, and
/// it has no cutter (the paper is torn off), so a job ends with a feed. See
/// `docs/printing.md` for the sources.
public struct PrinterProfile: Sendable, Hashable, CustomStringConvertible {
    /// A short name, such as `"58 mm"`.
    public var name: String
    /// The paper's width in millimetres.
    public var paperWidth: Int
    /// Characters per line in font A (12 × 24 dots); receipts are laid out in this font.
    public var columns: Int
    /// Characters per line in font B (9 dots wide).
    public var columnsFontB: Int
    /// The printable width in dots (8 dots per millimetre); a wider logo is cropped to it.
    public var printableDots: Int
    /// The character set text is encoded in.
    public var codePage: CodePage
    /// The command that selects ``codePage``, such as `ESC t 19` (`1B 74 13`).
    public var codePageCommand: [UInt8]
    /// Whether the printer has an auto-cutter; without one a job ends with a feed instead.
    public var hasCutter: Bool

    /// Creates a profile.
    public init(
        name: String, paperWidth: Int, columns: Int, columnsFontB: Int, printableDots: Int,
        codePage: CodePage, codePageCommand: [UInt8], hasCutter: Bool
    ) {
        self.name = name
        self.paperWidth = paperWidth
        self.columns = columns
        self.columnsFontB = columnsFontB
        self.printableDots = printableDots
        self.codePage = codePage
        self.codePageCommand = codePageCommand
        self.hasCutter = hasCutter
    }

    /// A 58 mm ESC/POS printer: 32 columns in font A, 42 in font B, 384 dots, CP858
    /// (`ESC t 19`), with a cutter.
    public static let paper58mm = PrinterProfile(
        name: "58 mm", paperWidth: 58, columns: 32, columnsFontB: 42, printableDots: 384,
        codePage: .cp858, codePageCommand: [0x1B, 0x74, 19], hasCutter: true)

    /// An 80 mm ESC/POS printer: 48 columns in font A, 64 in font B, 576 dots, CP858
    /// (`ESC t 19`), with a cutter.
    public static let paper80mm = PrinterProfile(
        name: "80 mm", paperWidth: 80, columns: 48, columnsFontB: 64, printableDots: 576,
        codePage: .cp858, codePageCommand: [0x1B, 0x74, 19], hasCutter: true)

    /// The Datecs DPP-250 mobile printer (58 mm, 384 dots): CP850 selected with Datecs'
    /// `ESC u 1`, and no cutter. CP850 has no euro sign, so `"€"` prints as `"EUR"`.
    public static let datecsDPP250 = PrinterProfile(
        name: "Datecs DPP-250", paperWidth: 58, columns: 32, columnsFontB: 42, printableDots: 384,
        codePage: .cp850, codePageCommand: [0x1B, 0x75, 1], hasCutter: false)

    /// The profile's name.
    public var description: String { name }
}
