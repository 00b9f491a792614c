/// The paper a printer takes and how many characters of font A fit on a line.
public struct PrinterModel: Sendable, Equatable {
    /// Printable width in dots at 8 dots per mm (384 for 58 mm paper, 576 for 80 mm).
    public var dotsPerLine: Int
    /// Characters per line in font A (32 on 58 mm, 48 on 80 mm).
    public var columns: Int

    /// A 58 mm printer: 384 dots, 32 columns.
    public static let paper58mm = PrinterModel(dotsPerLine: 384, columns: 32)
    /// An 80 mm printer: 576 dots, 48 columns.
    public static let paper80mm = PrinterModel(dotsPerLine: 576, columns: 48)

    /// The model with the given number of columns: 32 gives 58 mm paper, 48 gives 80 mm.
    /// Returns nil for any other count.
    public init?(columns: Int) {
        switch columns {
        case 32: self = .paper58mm
        case 48: self = .paper80mm
        default: return nil
        }
    }

    /// A model with a given width and column count.
    public init(dotsPerLine: Int, columns: Int) {
        self.dotsPerLine = dotsPerLine
        self.columns = columns
    }
}

/// The printer's sensors and the drawer, and the one-byte answers to `DLE EOT n`.
public struct PrinterState: Sendable, Equatable {
    /// No paper in the roll holder: the printer is offline and stops printing.
    public var paperOut: Bool
    /// The roll is nearly used up; the printer still prints.
    public var paperNearEnd: Bool
    /// The cover is open: the printer is offline and stops printing.
    public var coverOpen: Bool
    /// The drawer's switch on connector pin 3 reads high (the drawer is open).
    public var drawerOpen: Bool

    /// A state; every flag defaults to the ready, closed printer.
    public init(paperOut: Bool = false, paperNearEnd: Bool = false, coverOpen: Bool = false, drawerOpen: Bool = false) {
        self.paperOut = paperOut
        self.paperNearEnd = paperNearEnd
        self.coverOpen = coverOpen
        self.drawerOpen = drawerOpen
    }

    /// True when the printer prints what it receives (paper present and cover closed).
    public var canPrint: Bool { !paperOut && !coverOpen }

    /// The byte a printer sends for `DLE EOT n`, or nil for an `n` it does not answer.
    ///
    /// The layouts follow Epson's ESC/POS reference for real-time status transmission. In
    /// every answer bit 1 and bit 4 are fixed at 1 and bits 0 and 7 at 0, so a host can tell a
    /// status byte from other data.
    /// - `n = 1` printer status: bit 2 is the drawer connector's pin 3 (1 = high), bit 3 is set
    ///   while the printer is offline.
    /// - `n = 2` offline cause: bit 2 the cover is open, bit 3 paper is fed by the button,
    ///   bit 5 printing stopped because the paper ran out, bit 6 an error occurred.
    /// - `n = 3` error cause: bit 3 cutter error, bit 5 unrecoverable, bit 6 auto-recoverable.
    /// - `n = 4` roll paper sensor: bits 2 and 3 both set when the paper is near its end, bits
    ///   5 and 6 both set when the paper is out.
    public func statusByte(for n: UInt8) -> UInt8? {
        let fixed: UInt8 = 0b0001_0010
        switch n {
        case 1:
            return fixed | (drawerOpen ? 1 << 2 : 0) | (canPrint ? 0 : 1 << 3)
        case 2:
            return fixed | (coverOpen ? 1 << 2 : 0) | (paperOut ? 1 << 5 : 0)
        case 3:
            return fixed
        case 4:
            return fixed | (paperNearEnd ? 0b0000_1100 : 0) | (paperOut ? 0b0110_0000 : 0)
        default:
            return nil
        }
    }

    /// The condition that stops printing, in a few words, or nil when the printer can print.
    public var stopReason: String? {
        switch (coverOpen, paperOut) {
        case (true, true): "cover open, paper out"
        case (true, false): "cover open"
        case (false, true): "paper out"
        case (false, false): nil
        }
    }
}
