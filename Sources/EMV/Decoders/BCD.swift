/// Binary-coded decimal helpers for numeric (`n`) values: two digits a byte, high nibble first.
enum BCD {
    /// The decimal digits of the value, two per byte; throws on a nibble above 9.
    static func digits(_ bytes: [UInt8]) throws(EMVValueError) -> [Int] {
        var digits: [Int] = []
        digits.reserveCapacity(bytes.count * 2)
        for (offset, byte) in bytes.enumerated() {
            let high = Int(byte >> 4)
            let low = Int(byte & 0x0F)
            guard high <= 9, low <= 9 else { throw .invalidDigit(byteOffset: offset, byte: byte) }
            digits.append(high)
            digits.append(low)
        }
        return digits
    }

    /// The value read as one decimal number. At most 9 bytes (18 digits), so it fits `Int64`.
    static func integer(_ bytes: [UInt8]) throws(EMVValueError) -> Int64 {
        guard bytes.count <= 9 else { throw .wrongLength(expected: .upTo(9), got: bytes.count) }
        return try digits(bytes).reduce(Int64(0)) { $0 * 10 + Int64($1) }
    }

    /// The value of one byte holding two digits (`0x24` → 24).
    static func twoDigits(_ byte: UInt8, at offset: Int) throws(EMVValueError) -> Int {
        let high = Int(byte >> 4)
        let low = Int(byte & 0x0F)
        guard high <= 9, low <= 9 else { throw .invalidDigit(byteOffset: offset, byte: byte) }
        return high * 10 + low
    }
}
