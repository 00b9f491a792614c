/// A one-bit image of the printed paper: `true` is a printed (black) dot.
public struct PageImage: Sendable, Equatable {
    /// Dots per row.
    public let width: Int
    /// Rows.
    public private(set) var height: Int
    private var dots: [Bool]

    /// A blank image.
    public init(width: Int, height: Int = 0) {
        self.width = max(0, width)
        self.height = max(0, height)
        dots = Array(repeating: false, count: self.width * self.height)
    }

    /// True when the dot is printed; false outside the image.
    public subscript(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < width, y < height else { return false }
        return dots[y * width + x]
    }

    /// Prints a dot; dots to the side are clipped, dots below grow the paper.
    mutating func set(_ x: Int, _ y: Int) {
        guard x >= 0, x < width, y >= 0 else { return }
        if y >= height { grow(to: y + 1) }
        dots[y * width + x] = true
    }

    /// Feeds blank paper up to `rows` rows.
    mutating func grow(to rows: Int) {
        guard rows > height else { return }
        dots.append(contentsOf: repeatElement(false, count: (rows - height) * width))
        height = rows
    }

    /// The image as a binary PBM ("P4"): a text header, then rows packed eight dots a byte,
    /// most significant bit leftmost, 1 for black.
    public var pbm: [UInt8] {
        var bytes = Array("P4\n\(width) \(height)\n".utf8)
        let rowBytes = (width + 7) / 8
        for y in 0..<height {
            var row = [UInt8](repeating: 0, count: rowBytes)
            for x in 0..<width where dots[y * width + x] { row[x / 8] |= 0x80 >> (x % 8) }
            bytes += row
        }
        return bytes
    }
}
