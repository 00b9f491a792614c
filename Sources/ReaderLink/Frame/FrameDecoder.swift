/// A streaming frame decoder: feed it bytes as they arrive, in chunks of any size, and take
/// whole frames out.
///
/// Bytes before a magic are skipped (counted in ``discardedByteCount``). A candidate frame with
/// an unknown format, reserved flag bits, an oversize length or a wrong checksum throws
/// `.malformed`; the decoder has then dropped the candidate's first byte and resumes the search
/// on the next call, so a corrupted frame never blocks the frames behind it. Memory stays
/// bounded by one maximum frame plus the last chunk appended.
public struct FrameDecoder: Sendable {
    private var buffer: [UInt8] = []
    private var start = 0

    /// Bytes skipped while searching for a frame start, since the decoder was created.
    public private(set) var discardedByteCount = 0

    /// Creates an empty decoder.
    public init() {}

    /// Bytes held that do not form a whole frame yet.
    public var bufferedByteCount: Int { buffer.count - start }

    /// Appends received bytes.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        if start > 0, start >= 4096 || start == buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole frame, or nil when more bytes are needed. Throws `.malformed` for a bad
    /// candidate frame (see the type's description); call again to continue.
    public mutating func nextFrame() throws(ReaderLinkError) -> Frame? {
        while true {
            // Find the magic.
            var index = start
            let end = buffer.count
            while index < end {
                if buffer[index] == Frame.magic.0, index + 1 == end || buffer[index + 1] == Frame.magic.1 {
                    break
                }
                index += 1
            }
            discardedByteCount += index - start
            start = index
            guard end - start >= Frame.headerLength else { return nil }
            let format = buffer[start + 2]
            let flags = buffer[start + 4]
            let length = Int(buffer[start + 7]) << 8 | Int(buffer[start + 8])
            if format != Frame.format {
                start += 1
                throw .malformed(detail: "unknown frame format \(format)")
            }
            if flags & ~FrameFlags.all.rawValue != 0 {
                start += 1
                throw .malformed(detail: "reserved frame flag bits set")
            }
            if length > Frame.maximumPayloadLength {
                start += 1
                throw .malformed(detail: "frame length \(length) exceeds \(Frame.maximumPayloadLength)")
            }
            let total = Frame.overhead + length
            guard end - start >= total else { return nil }
            let crcStart = start + Frame.headerLength + length
            let received =
                UInt32(buffer[crcStart]) << 24 | UInt32(buffer[crcStart + 1]) << 16 | UInt32(
                    buffer[crcStart + 2]) << 8
                | UInt32(buffer[crcStart + 3])
            guard CRC32.checksum(buffer[(start + 2)..<crcStart]) == received else {
                start += 1
                throw .malformed(detail: "frame checksum mismatch")
            }
            let frame = Frame(
                type: FrameType(rawValue: buffer[start + 3]),
                flags: FrameFlags(rawValue: flags),
                sequence: UInt16(buffer[start + 5]) << 8 | UInt16(buffer[start + 6]),
                payload: Array(buffer[(start + Frame.headerLength)..<crcStart]))
            start += total
            return frame
        }
    }
}
