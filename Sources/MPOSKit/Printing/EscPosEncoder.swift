import MPOSCore

/// Builds an ESC/POS print job, one command at a time, for one ``PrinterProfile``.
///
/// Text is encoded in the profile's code page; a character with no mapping prints as `"?"`
/// and is listed in ``unmappedCharacters``.
///
/// ```swift
/// var job = EscPosEncoder(profile: .paper58mm)
/// job.initialize()                 // ESC @
/// job.selectCodePage()             // ESC t 19
/// job.bold(true)
/// job.line("Corner Café")
/// job.cut()                        // GS V 66 0
/// send(job.bytes)
/// ```
public struct EscPosEncoder: Sendable {
    /// Where a line sits across the paper (`ESC a n`).
    public enum Alignment: UInt8, Sendable, Hashable {
        /// n = 0.
        case left = 0
        /// n = 1.
        case center = 1
        /// n = 2.
        case right = 2
    }

    /// The drawer kick-out connector pin that `ESC p` pulses.
    public enum DrawerPin: UInt8, Sendable, Hashable, CaseIterable {
        /// Pin 2 (m = 0), the first drawer.
        case pin2 = 0
        /// Pin 5 (m = 1), the second drawer.
        case pin5 = 1
    }

    /// The most data one QR code can store (`GS ( k` function 180 allows a length of 7,092
    /// including its 3 parameter bytes).
    public static let maximumQRDataCount = 7_089

    /// The printer the job is for.
    public let profile: PrinterProfile
    /// The job so far.
    public private(set) var bytes: [UInt8] = [] {
        didSet { commandEnds.append(bytes.count) }
    }
    /// The offsets in ``bytes`` where a command (or a run of text) ends: the only places a
    /// status request may be sent mid-job, since a printer takes bytes inside a command for
    /// the command's data.
    public private(set) var commandEnds: [Int] = []
    /// The characters that had no mapping in the code page and printed as `"?"`, each once.
    public private(set) var unmappedCharacters: [Character] = []

    /// An empty job for `profile`.
    public init(profile: PrinterProfile) {
        self.profile = profile
    }

    /// `ESC @`: clears the printer's modes and buffer.
    public mutating func initialize() { bytes += [0x1B, 0x40] }

    /// The profile's code page command (`ESC t n`, or Datecs' `ESC u n`).
    public mutating func selectCodePage() { bytes += profile.codePageCommand }

    /// `ESC a n`.
    public mutating func align(_ alignment: Alignment) { bytes += [0x1B, 0x61, alignment.rawValue] }

    /// `ESC E n`: emphasised (bold) on or off.
    public mutating func bold(_ on: Bool) { bytes += [0x1B, 0x45, on ? 1 : 0] }

    /// `GS ! n`: character magnification, 1...8 times in each direction (values outside are
    /// clamped). `size(width: 2, height: 2)` is `1D 21 11`.
    public mutating func size(width: Int, height: Int) {
        let w = UInt8(min(8, max(1, width)) - 1)
        let h = UInt8(min(8, max(1, height)) - 1)
        bytes += [0x1D, 0x21, w << 4 | h]
    }

    /// `text` in the code page, then LF (print and feed one line).
    public mutating func line(_ text: String) {
        let encoded = profile.codePage.encode(text)
        bytes += encoded.bytes
        bytes.append(0x0A)
        for character in encoded.unmapped where !unmappedCharacters.contains(character) {
            unmappedCharacters.append(character)
        }
    }

    /// `ESC d n`: prints the buffer and feeds `lines` lines.
    public mutating func feed(lines: UInt8) { bytes += [0x1B, 0x64, lines] }

    /// The printer's own QR code (`GS ( k`, cn = 49): model 2 (function 165), module size
    /// (167), error correction M (169), store `data` (180) and print it (181).
    ///
    /// - Parameter moduleSize: dots per module, 1...16.
    /// - Throws: ``MPOSError/invalidArgument`` when `data` is empty or longer than
    ///   ``maximumQRDataCount``, or the module size is outside 1...16.
    public mutating func qrCode(_ data: [UInt8], moduleSize: UInt8 = 6) throws(MPOSError) {
        guard (1...Self.maximumQRDataCount).contains(data.count), (1...16).contains(moduleSize) else {
            throw MPOSError(
                code: MPOSError.Code.invalidArgument,
                message: "A QR code holds 1 to \(Self.maximumQRDataCount) bytes with modules of 1 to 16 dots."
            )
        }
        func function(_ fn: UInt8, _ parameters: [UInt8]) {
            let length = parameters.count + 2
            bytes += [0x1D, 0x28, 0x6B, UInt8(length & 0xFF), UInt8(length >> 8), 49, fn] + parameters
        }
        function(65, [50, 0])  // 165: model 2
        function(67, [moduleSize])  // 167: module size
        function(69, [49])  // 169: error correction level M
        function(80, [48] + data)  // 180: store
        function(81, [48])  // 181: print
    }

    /// `GS v 0`: prints `bitmap` as a raster image at normal density (m = 0), followed by its
    /// width in bytes and height in dots.
    public mutating func rasterImage(_ bitmap: MonochromeBitmap) {
        let x = bitmap.bytesPerRow
        let y = bitmap.height
        bytes += [0x1D, 0x76, 0x30, 0, UInt8(x & 0xFF), UInt8(x >> 8), UInt8(y & 0xFF), UInt8(y >> 8)] + bitmap.bytes
    }

    /// Ends the job: with a cutter, `GS V 66 n` (feed to the cutting position plus `feed`
    /// dots, then a partial cut); without one, `ESC d 4` so the printed part clears the tear bar.
    public mutating func cut(feed: UInt8 = 0) {
        if profile.hasCutter {
            bytes += [0x1D, 0x56, 66, feed]
        } else {
            self.feed(lines: 4)
        }
    }

    /// `GS V 1`: a partial cut where the paper stands, for printers without function B.
    public mutating func partialCutWithoutFeed() { bytes += [0x1D, 0x56, 1] }

    /// `ESC p m t1 t2`: pulses the drawer kick-out connector's `pin`, on for `onTime` × 2 ms
    /// and off for `offTime` × 2 ms.
    public mutating func kickDrawer(_ pin: DrawerPin = .pin2, onTime: UInt8 = 25, offTime: UInt8 = 250) {
        bytes += Self.drawerKick(pin, onTime: onTime, offTime: offTime)
    }

    /// The bytes of ``kickDrawer(_:onTime:offTime:)``, for sending on their own.
    public static func drawerKick(_ pin: DrawerPin = .pin2, onTime: UInt8 = 25, offTime: UInt8 = 250)
        -> [UInt8]
    {
        [0x1B, 0x70, pin.rawValue, onTime, offTime]
    }

    /// `DLE EOT n`: the real-time status request whose one-byte answer
    /// ``PrinterStatus/update(with:for:)`` reads.
    public static func statusRequest(_ request: PrinterStatus.Request) -> [UInt8] {
        [0x10, 0x04, request.rawValue]
    }
}
