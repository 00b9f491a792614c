/// A QR code symbol (model 2, byte mode, versions 1–10), built as ISO/IEC 18004 describes:
/// data and padding codewords, Reed–Solomon blocks interleaved, function patterns, the data
/// placed in the two-column zigzag, the mask with the lowest penalty, format and version
/// information. The emulator draws it for `GS ( k` as a printer would.
public struct QRCode: Sendable, Equatable {
    /// Why data cannot become a symbol.
    public struct TooLong: Error, Equatable {
        /// The number of bytes asked for.
        public var byteCount: Int
        /// The most that version 10 holds at the level asked for.
        public var capacity: Int
    }

    /// The version (1–10) chosen: the smallest that holds the data.
    public let version: Int
    /// The level used.
    public let errorCorrection: QRErrorCorrection
    /// The mask pattern applied (0–7).
    public let mask: Int
    /// Modules per side (21 for version 1, four more per version).
    public let size: Int
    private var modules: [Bool]

    /// True when the module at `row`, `column` is dark.
    public func isDark(row: Int, column: Int) -> Bool { modules[row * size + column] }

    /// Encodes `data` in byte mode in the smallest version that holds it.
    /// - Parameter mask: a mask pattern to force (0–7), or nil to choose by penalty.
    /// - Throws: ``TooLong`` when the data does not fit version 10.
    public init(encoding data: [UInt8], errorCorrection: QRErrorCorrection = .medium, mask: Int? = nil) throws(TooLong) {
        let capacity = QRVersion(number: QRVersion.supported.upperBound).byteCapacity(errorCorrection)
        guard let number = QRVersion.supported.first(where: { QRVersion(number: $0).byteCapacity(errorCorrection) >= data.count }) else {
            throw TooLong(byteCount: data.count, capacity: capacity)
        }
        let version = QRVersion(number: number)
        let codewords = Self.codewords(for: data, version: version, level: errorCorrection)
        var grid = QRGrid(version: version)
        grid.drawFunctionPatterns()
        grid.place(codewords)
        let chosen = mask.map { min(max($0, 0), 7) } ?? (0..<8).min { a, b in
            grid.masked(a, level: errorCorrection).penalty < grid.masked(b, level: errorCorrection).penalty
        }!
        let final = grid.masked(chosen, level: errorCorrection)
        self.version = number
        self.errorCorrection = errorCorrection
        self.mask = chosen
        self.size = version.size
        self.modules = final.dark
    }

    /// Data codewords (mode, count, bytes, terminator, padding) followed by the error
    /// correction codewords, interleaved block by block.
    static func codewords(for data: [UInt8], version: QRVersion, level: QRErrorCorrection) -> [UInt8] {
        let capacity = version.dataCodewords(level)
        var bits = BitWriter()
        bits.append(0b0100, count: 4)
        bits.append(data.count, count: version.countBits)
        for byte in data { bits.append(Int(byte), count: 8) }
        bits.append(0, count: min(4, capacity * 8 - bits.count))
        bits.append(0, count: (8 - bits.count % 8) % 8)
        var dataCodewords = bits.bytes
        var pad: UInt8 = 0xEC
        while dataCodewords.count < capacity {
            dataCodewords.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        return interleave(dataCodewords, version: version, level: level)
    }

    /// Splits data into blocks (the shorter ones first), adds each block's error correction
    /// and reads the blocks column by column.
    static func interleave(_ data: [UInt8], version: QRVersion, level: QRErrorCorrection) -> [UInt8] {
        let (ecPerBlock, count) = version.blocks(level)
        let shortLength = data.count / count
        let longBlocks = data.count % count
        var blocks: [[UInt8]] = []
        var offset = 0
        for index in 0..<count {
            let length = shortLength + (index >= count - longBlocks ? 1 : 0)
            blocks.append(Array(data[offset..<(offset + length)]))
            offset += length
        }
        let corrections = blocks.map { ReedSolomon.remainder(of: $0, degree: ecPerBlock) }
        var result: [UInt8] = []
        for column in 0...shortLength {
            for block in blocks where column < block.count { result.append(block[column]) }
        }
        for column in 0..<ecPerBlock {
            for correction in corrections { result.append(correction[column]) }
        }
        return result
    }
}

/// Bits appended most significant first, read back as bytes.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private(set) var count = 0

    mutating func append(_ value: Int, count length: Int) {
        guard length > 0 else { return }
        for shift in stride(from: length - 1, through: 0, by: -1) {
            if count % 8 == 0 { bytes.append(0) }
            if value >> shift & 1 == 1 { bytes[count / 8] |= 0x80 >> (count % 8) }
            count += 1
        }
    }
}
