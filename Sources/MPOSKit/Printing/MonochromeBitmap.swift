import MPOSCore

/// A 1-bit image for the printer's raster command (`GS v 0`): rows of bytes, the most
/// significant bit leftmost, a set bit printed black.
///
/// ```swift
/// let logo = try MonochromeBitmap(width: 16, height: 2) { x, y in (x + y) % 2 == 0 }
/// logo.bytesPerRow    // 2
/// ```
public struct MonochromeBitmap: Sendable, Hashable {
    /// Width in dots.
    public let width: Int
    /// Height in dots.
    public let height: Int
    /// Bytes per row: the width rounded up to whole bytes.
    public let bytesPerRow: Int
    /// The rows, top first; padding bits at the right of each row are clear.
    public let bytes: [UInt8]

    /// The largest width and height `GS v 0` can express (two bytes each, the width in bytes).
    static let maximumBytesPerRow = 0xFFFF
    static let maximumHeight = 0xFFFF

    /// A bitmap whose dot at (`x`, `y`) is black where `isBlack` says so.
    ///
    /// - Throws: ``MPOSError/invalidArgument`` when a side is zero, negative or too large.
    public init(width: Int, height: Int, isBlack: (_ x: Int, _ y: Int) -> Bool) throws(MPOSError) {
        guard width > 0, height > 0, (width + 7) / 8 <= Self.maximumBytesPerRow, height <= Self.maximumHeight
        else { throw Self.badSize }
        let bytesPerRow = (width + 7) / 8
        var bytes = [UInt8](repeating: 0, count: bytesPerRow * height)
        for y in 0..<height {
            for x in 0..<width where isBlack(x, y) {
                bytes[y * bytesPerRow + x / 8] |= 0x80 >> UInt8(x % 8)
            }
        }
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.bytes = bytes
    }

    /// A bitmap from packed rows (`bytesPerRow × height` bytes, as `GS v 0` sends them).
    ///
    /// - Throws: ``MPOSError/invalidArgument`` when the count does not match or a side is
    ///   zero or too large.
    public init(width: Int, height: Int, packedRows: [UInt8]) throws(MPOSError) {
        let bytesPerRow = (width + 7) / 8
        guard width > 0, height > 0, bytesPerRow <= Self.maximumBytesPerRow, height <= Self.maximumHeight,
            packedRows.count == bytesPerRow * height
        else { throw Self.badSize }
        try self.init(width: width, height: height) { x, y in
            packedRows[y * bytesPerRow + x / 8] & (0x80 >> UInt8(x % 8)) != 0
        }
    }

    /// Whether the dot at (`x`, `y`) is black; dots outside the bitmap are white.
    public func isBlack(x: Int, y: Int) -> Bool {
        guard (0..<width).contains(x), (0..<height).contains(y) else { return false }
        return bytes[y * bytesPerRow + x / 8] & (0x80 >> UInt8(x % 8)) != 0
    }

    /// The left `maximumWidth` dots, or the bitmap itself when it is not wider.
    func cropped(toWidth maximumWidth: Int) -> MonochromeBitmap {
        // Cannot fail: a narrower width and the same height are still in range.
        guard width > maximumWidth, maximumWidth > 0,
            let cropped = try? MonochromeBitmap(width: maximumWidth, height: height, isBlack: isBlack)
        else { return self }
        return cropped
    }

    private static let badSize = MPOSError(
        code: MPOSError.Code.invalidArgument,
        message: "A bitmap needs 1 to 65,535 rows of 1 to 65,535 bytes, with one bit per dot.")
}
