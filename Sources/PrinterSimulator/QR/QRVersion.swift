/// The error correction level of a QR code symbol.
public enum QRErrorCorrection: Int, Sendable, CaseIterable {
    /// About 7 % of the codewords can be restored.
    case low
    /// About 15 %.
    case medium
    /// About 25 %.
    case quartile
    /// About 30 %.
    case high

    /// The level that `GS ( k … 49 69 n` selects (n 48 L, 49 M, 50 Q, 51 H), or nil.
    public init?(escPosLevel n: UInt8) {
        guard n >= 48, let level = QRErrorCorrection(rawValue: Int(n) - 48) else { return nil }
        self = level
    }

    /// The two bits that stand for the level in the format information (L 01, M 00, Q 11, H 10).
    var formatBits: Int {
        switch self {
        case .low: 1
        case .medium: 0
        case .quartile: 3
        case .high: 2
        }
    }
}

/// The sizes of QR code versions 1 to 10 (ISO/IEC 18004, model 2).
struct QRVersion {
    let number: Int

    static let supported = 1...10

    var size: Int { 17 + 4 * number }

    /// Every codeword the symbol holds, data and error correction.
    var totalCodewords: Int { [26, 44, 70, 100, 134, 172, 196, 242, 292, 346][number - 1] }

    /// Error correction codewords per block, then the number of blocks, per level (L, M, Q, H).
    func blocks(_ level: QRErrorCorrection) -> (ecPerBlock: Int, count: Int) {
        let table: [[(Int, Int)]] = [
            [(7, 1), (10, 1), (13, 1), (17, 1)],
            [(10, 1), (16, 1), (22, 1), (28, 1)],
            [(15, 1), (26, 1), (18, 2), (22, 2)],
            [(20, 1), (18, 2), (26, 2), (16, 4)],
            [(26, 1), (24, 2), (18, 4), (22, 4)],
            [(18, 2), (16, 4), (24, 4), (28, 4)],
            [(20, 2), (18, 4), (18, 6), (26, 5)],
            [(24, 2), (22, 4), (22, 6), (26, 6)],
            [(30, 2), (22, 5), (20, 8), (24, 8)],
            [(18, 4), (26, 5), (24, 8), (28, 8)],
        ]
        let entry = table[number - 1][level.rawValue]
        return (entry.0, entry.1)
    }

    func dataCodewords(_ level: QRErrorCorrection) -> Int {
        let blocks = blocks(level)
        return totalCodewords - blocks.ecPerBlock * blocks.count
    }

    /// Bytes that fit in byte mode: 4 bits of mode, the count (8 bits below version 10, else
    /// 16) and 8 bits per byte.
    func byteCapacity(_ level: QRErrorCorrection) -> Int {
        (dataCodewords(level) * 8 - 4 - countBits) / 8
    }

    var countBits: Int { number < 10 ? 8 : 16 }

    /// Row and column centres of the alignment patterns.
    var alignmentCentres: [Int] {
        switch number {
        case 1: []
        case 2...6: [6, size - 7]
        default: [6, [22, 24, 26, 28][number - 7], size - 7]
        }
    }
}
