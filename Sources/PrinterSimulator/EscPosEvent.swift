/// Horizontal alignment set with `ESC a n`.
public enum Justification: UInt8, Sendable, Equatable {
    /// `ESC a 0` or `ESC a 48`.
    case left = 0
    /// `ESC a 1` or `ESC a 49`.
    case center = 1
    /// `ESC a 2` or `ESC a 50`.
    case right = 2
}

/// The cash drawer connector pin that `ESC p` pulses.
public enum DrawerPin: Int, Sendable, Equatable {
    /// Pin 2 (`ESC p 0` or `ESC p 48`), the usual first drawer.
    case pin2 = 2
    /// Pin 5 (`ESC p 1` or `ESC p 49`), the second drawer.
    case pin5 = 5
}

/// The paper cut that a form of `GS V` asks for.
public struct Cut: Sendable, Equatable {
    /// True for a partial cut (one point left uncut), false for a full cut.
    public var partial: Bool
    /// Motion units fed before cutting (`GS V 65…104 n`), or nil for `GS V 0/1/48/49`.
    public var feed: Int?

    /// A cut as decoded.
    public init(partial: Bool, feed: Int?) {
        self.partial = partial
        self.feed = feed
    }
}

/// One function of the QR code commands, `GS ( k` with `cn = 49`.
public enum QRCommand: Sendable, Equatable {
    /// Function 165 (`fn 65`): select the model.
    case selectModel(UInt8)
    /// Function 167 (`fn 67`): the module size in dots.
    case moduleSize(UInt8)
    /// Function 169 (`fn 69`): the error correction level, 48 (L) to 51 (H).
    case errorCorrection(UInt8)
    /// Function 180 (`fn 80`): store the data to print.
    case store([UInt8])
    /// Function 181 (`fn 81`): print the stored data.
    case print
    /// Any other function, accepted and ignored (`fn` and its parameters).
    case other(function: UInt8, parameters: [UInt8])
}

/// A raster bit image from `GS v 0`: one bit per dot, most significant bit leftmost.
public struct RasterImage: Sendable, Equatable {
    /// The mode byte `m` (0/48 normal, 1/49 double width, 2/50 double height, 3/51 quadruple).
    public var mode: UInt8
    /// Bytes per row (`xL + xH × 256`).
    public var widthBytes: Int
    /// Rows (`yL + yH × 256`).
    public var height: Int
    /// `widthBytes × height` bytes, row by row.
    public var data: [UInt8]

    /// An image as decoded.
    public init(mode: UInt8, widthBytes: Int, height: Int, data: [UInt8]) {
        self.mode = mode
        self.widthBytes = widthBytes
        self.height = height
        self.data = data
    }
}

/// What the decoder found in a stream of ESC/POS bytes, in order.
public enum EscPosEvent: Sendable, Equatable {
    /// Printable characters, decoded from the code page selected at that point.
    case text(String)
    /// `LF`: print the line buffer and feed one line.
    case lineFeed
    /// `ESC @`: initialize the printer (formatting back to power-on values).
    case initialize
    /// `ESC t n`: select a character code table (the raw `n`; see ``PrinterCodePage``).
    case selectCodePage(UInt8)
    /// Datecs' `ESC u n`: select a code table in Datecs' numbering (0 = CP437, 1 = CP850),
    /// where Epson's `ESC u` asks for a peripheral status that no host here uses.
    case selectDatecsCodeTable(UInt8)
    /// `ESC a n`.
    case justification(Justification)
    /// `ESC E n`: emphasized (bold) on when the lowest bit of `n` is set.
    case emphasis(Bool)
    /// `GS ! n`: character width and height multipliers, 1 to 8 each.
    case characterSize(width: Int, height: Int)
    /// `ESC d n`: print and feed `n` lines.
    case feedLines(Int)
    /// `GS V`, every form.
    case cut(Cut)
    /// `ESC p m t1 t2`: pulse a drawer pin for `t1 × 2` ms on and `t2 × 2` ms off.
    case drawerKick(pin: DrawerPin, onTime: UInt8, offTime: UInt8)
    /// `DLE EOT n`: a real-time status request; the printer answers one byte.
    case statusRequest(UInt8)
    /// `GS ( k` for the QR code symbol.
    case qrCode(QRCommand)
    /// `GS ( k` for another symbol (PDF417, MaxiCode…): accepted and not printed.
    case otherSymbol(cn: UInt8, function: UInt8)
    /// `GS v 0`.
    case rasterImage(RasterImage)
    /// A `GS v 0` whose size is above the decoder's cap: its data is skipped, not stored.
    case rasterTooLarge(widthBytes: Int, height: Int)
    /// A command the emulator does not act on, skipped as the printer skips it: by its known
    /// length when the command is a known one, else the introducer and one function byte.
    case skipped([UInt8])
    /// Bytes left at the end of input that do not complete a command.
    case truncated([UInt8])
}
