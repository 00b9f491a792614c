/// ISO/IEC 9797-1 padding method 2: append `80`, then `00` bytes up to a multiple of the block
/// size. Padding is always added, so a block-aligned input gains a whole block.
enum ISO9797Padding {
    /// Pads `data` to a multiple of 16 bytes.
    static func pad(_ data: [UInt8]) -> [UInt8] {
        var out = data
        out.append(0x80)
        let remainder = out.count % AESBlock.size
        if remainder != 0 { out += [UInt8](repeating: 0, count: AESBlock.size - remainder) }
        return out
    }

    /// Removes the padding, or returns `nil` when the last block does not end in `80 00…00`.
    ///
    /// Scans the whole last block whatever its content, so the time taken does not reveal where
    /// the marker is (a padding oracle still exists at the level of success or failure, which
    /// callers report as one error).
    static func unpad(_ data: [UInt8]) -> [UInt8]? {
        guard data.count >= AESBlock.size, data.count % AESBlock.size == 0 else { return nil }
        let lastBlockStart = data.count - AESBlock.size
        var markerIndex = -1
        var stillZeros = true
        var valid = false
        for index in stride(from: data.count - 1, through: lastBlockStart, by: -1) {
            let byte = data[index]
            let isMarker = stillZeros && byte == 0x80
            if isMarker {
                markerIndex = index
                valid = true
            }
            stillZeros = stillZeros && byte == 0x00
        }
        return valid ? Array(data[..<markerIndex]) : nil
    }
}
