/// The framing of the vpcd protocol (vsmartcard's virtual reader driver for pcscd): every
/// message, both ways, is a 2-byte big-endian length and then that many bytes.
///
/// A pure decoder: bytes in as the socket reads them, whole messages out.
public struct VPCDFrames: Sendable {
    private var buffer: [UInt8] = []

    /// An empty decoder.
    public init() {}

    /// Adds bytes and returns the messages they complete, in order.
    public mutating func append(_ bytes: some Collection<UInt8>) -> [[UInt8]] {
        buffer += bytes
        var messages: [[UInt8]] = []
        var offset = 0
        while buffer.count - offset >= 2 {
            let length = Int(buffer[offset]) << 8 | Int(buffer[offset + 1])
            guard buffer.count - offset - 2 >= length else { break }
            messages.append(Array(buffer[(offset + 2)..<(offset + 2 + length)]))
            offset += 2 + length
        }
        buffer.removeFirst(offset)
        return messages
    }

    /// `payload` with its length in front.
    public static func frame(_ payload: [UInt8]) -> [UInt8] {
        [UInt8(truncatingIfNeeded: payload.count >> 8), UInt8(truncatingIfNeeded: payload.count)] + payload
    }
}
