/// Random bytes drawn 64 bits at a time: `UInt8.random(using:)` draws a whole `UInt64` per
/// byte, and the system generator makes a `getrandom` system call per draw.
package enum RandomBytes {
    /// `count` bytes from `generator`: each draw's eight bytes, least significant first.
    package static func make(_ count: Int, using generator: inout some RandomNumberGenerator) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 7)
        while bytes.count < count {
            let word = generator.next()
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> shift)) }
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }
}
