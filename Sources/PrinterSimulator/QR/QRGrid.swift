/// The module grid while a symbol is built: which modules are dark and which belong to a
/// function pattern (finders, separators, timing, alignment, format and version areas).
struct QRGrid {
    let version: QRVersion
    let size: Int
    var dark: [Bool]
    var isFunction: [Bool]

    init(version: QRVersion) {
        self.version = version
        size = version.size
        dark = Array(repeating: false, count: size * size)
        isFunction = Array(repeating: false, count: size * size)
    }

    private mutating func set(_ row: Int, _ column: Int, _ value: Bool) {
        dark[row * size + column] = value
        isFunction[row * size + column] = true
    }

    mutating func drawFunctionPatterns() {
        for index in 0..<size {
            set(6, index, index % 2 == 0)
            set(index, 6, index % 2 == 0)
        }
        drawFinder(row: 3, column: 3)
        drawFinder(row: 3, column: size - 4)
        drawFinder(row: size - 4, column: 3)
        let centres = version.alignmentCentres
        for row in centres {
            for column in centres {
                let nearFinder = (row == 6 && column == 6) || (row == 6 && column == size - 7) || (row == size - 7 && column == 6)
                if !nearFinder { drawAlignment(row: row, column: column) }
            }
        }
        // Reserve the format areas now; their bits depend on the mask and are drawn last.
        drawFormat(0)
        drawVersion()
    }

    /// A 7×7 finder with its one-module light separator, clipped at the edges.
    private mutating func drawFinder(row: Int, column: Int) {
        for dy in -4...4 {
            for dx in -4...4 {
                let r = row + dy, c = column + dx
                guard (0..<size).contains(r), (0..<size).contains(c) else { continue }
                let ring = max(abs(dx), abs(dy))
                set(r, c, ring != 2 && ring != 4)
            }
        }
    }

    private mutating func drawAlignment(row: Int, column: Int) {
        for dy in -2...2 {
            for dx in -2...2 { set(row + dy, column + dx, max(abs(dx), abs(dy)) != 1) }
        }
    }

    /// The 15 format bits: level and mask, their BCH(15,5) check (generator 0x537), XOR 0x5412.
    static func formatBits(level: QRErrorCorrection, mask: Int) -> Int {
        let data = level.formatBits << 3 | mask
        var remainder = data
        for _ in 0..<10 { remainder = remainder << 1 ^ (remainder >> 9 & 1) * 0x537 }
        return (data << 10 | remainder & 0x3FF) ^ 0x5412
    }

    /// The 18 version bits (version 7 and up): the number and its BCH(18,6) check (0x1F25).
    static func versionBits(_ number: Int) -> Int {
        var remainder = number
        for _ in 0..<12 { remainder = remainder << 1 ^ (remainder >> 11 & 1) * 0x1F25 }
        return number << 12 | remainder & 0xFFF
    }

    /// Bit 0 is the least significant; the first copy runs down column 8 and along row 8 near
    /// the top-left finder, the second is split between the other two finders.
    mutating func drawFormat(_ bits: Int) {
        func bit(_ index: Int) -> Bool { bits >> index & 1 == 1 }
        for index in 0..<6 { set(index, 8, bit(index)) }
        set(7, 8, bit(6))
        set(8, 8, bit(7))
        set(8, 7, bit(8))
        for index in 9..<15 { set(8, 14 - index, bit(index)) }
        for index in 0..<8 { set(8, size - 1 - index, bit(index)) }
        for index in 8..<15 { set(size - 15 + index, 8, bit(index)) }
        set(size - 8, 8, true)
    }

    private mutating func drawVersion() {
        guard version.number >= 7 else { return }
        let bits = Self.versionBits(version.number)
        for index in 0..<18 {
            let value = bits >> index & 1 == 1
            let a = size - 11 + index % 3, b = index / 3
            set(b, a, value)
            set(a, b, value)
        }
    }

    /// Places the codewords, most significant bit first, in two-module columns from the
    /// bottom right, upwards then downwards, skipping the vertical timing column.
    mutating func place(_ codewords: [UInt8]) {
        let bitCount = codewords.count * 8
        var index = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            let upward = (right + 1) & 2 == 0
            for step in 0..<size {
                let row = upward ? size - 1 - step : step
                for column in [right, right - 1] where !isFunction[row * size + column] {
                    if index < bitCount { dark[row * size + column] = codewords[index >> 3] >> (7 - index & 7) & 1 == 1 }
                    index += 1
                }
            }
            right -= 2
        }
    }

    /// The grid with mask `pattern` applied to every data module and its format bits drawn.
    func masked(_ pattern: Int, level: QRErrorCorrection) -> QRGrid {
        var copy = self
        for row in 0..<size {
            for column in 0..<size where !isFunction[row * size + column] && Self.maskFlips(pattern, row, column) {
                copy.dark[row * size + column].toggle()
            }
        }
        copy.drawFormat(Self.formatBits(level: level, mask: pattern))
        return copy
    }

    static func maskFlips(_ pattern: Int, _ i: Int, _ j: Int) -> Bool {
        switch pattern {
        case 0: (i + j) % 2 == 0
        case 1: i % 2 == 0
        case 2: j % 3 == 0
        case 3: (i + j) % 3 == 0
        case 4: (i / 2 + j / 3) % 2 == 0
        case 5: (i * j) % 2 + (i * j) % 3 == 0
        case 6: ((i * j) % 2 + (i * j) % 3) % 2 == 0
        default: ((i + j) % 2 + (i * j) % 3) % 2 == 0
        }
    }
}
