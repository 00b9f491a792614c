/// One frame on the wire. See docs/reader-protocol.md, "Frames".
///
/// ```
/// offset size
///  0     2    magic A5 4C
///  2     1    frame format (1)
///  3     1    type
///  4     1    flags: bit 0 MORE (a continuation frame follows), bit 1 SECURED
///  5     2    sequence, big-endian (one number per message; its fragments share it)
///  7     2    payload length n, big-endian, at most `Frame.maximumPayloadLength`
///  9     n    payload
///  9+n   4    CRC-32 of bytes 2 ..< 9+n, big-endian
/// ```
public struct Frame: Sendable, Hashable {
    /// The two bytes every frame starts with; the decoder resynchronises on them.
    public static let magic: (UInt8, UInt8) = (0xA5, 0x4C)
    /// The frame format this implementation writes and reads.
    public static let format: UInt8 = 1
    /// Bytes before the payload.
    public static let headerLength = 9
    /// Bytes of header and checksum around the payload.
    public static let overhead = 13
    /// The largest payload one frame may carry. A length above it is rejected without
    /// waiting for (or allocating) the bytes.
    public static let maximumPayloadLength = 1024

    /// The frame's type byte.
    public var type: FrameType
    /// The frame's flags.
    public var flags: FrameFlags
    /// The sender's message number; all fragments of one message carry the same number.
    public var sequence: UInt16
    /// The payload: plain for pairing frames, counter + data + MAC when ``FrameFlags/secured``.
    public var payload: [UInt8]

    /// Creates a frame.
    public init(type: FrameType, flags: FrameFlags = [], sequence: UInt16, payload: [UInt8]) {
        self.type = type
        self.flags = flags
        self.sequence = sequence
        self.payload = payload
    }

    /// The header bytes covered by the checksum and the session MAC (offsets 2 ..< 9).
    public var authenticatedHeader: [UInt8] {
        [
            Frame.format, type.rawValue, flags.rawValue, UInt8(sequence >> 8), UInt8(sequence & 0xFF),
            UInt8((payload.count >> 8) & 0xFF), UInt8(payload.count & 0xFF),
        ]
    }

    /// The frame's bytes on the wire. The payload must not exceed ``maximumPayloadLength``.
    public func encoded() -> [UInt8] {
        precondition(payload.count <= Frame.maximumPayloadLength, "frame payload too large")
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Frame.overhead + payload.count)
        bytes.append(Frame.magic.0)
        bytes.append(Frame.magic.1)
        bytes.append(contentsOf: authenticatedHeader)
        bytes.append(contentsOf: payload)
        let crc = CRC32.checksum(bytes[2...])
        bytes.append(contentsOf: [
            UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF),
        ])
        return bytes
    }
}

/// A frame's type byte. Unknown values decode (so that the receiver can answer them with an
/// error frame) but are not processed.
public struct FrameType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The byte on the wire.
    public var rawValue: UInt8
    /// Wraps a type byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// SDK to reader: supported versions and the SDK's nonce. Plain.
    public static let hello = FrameType(rawValue: 0x01)
    /// Reader to SDK: chosen version, the reader's nonce and proof. Plain.
    public static let helloReply = FrameType(rawValue: 0x02)
    /// SDK to reader: the SDK's proof. Plain.
    public static let pairProof = FrameType(rawValue: 0x03)
    /// Reader to SDK: pairing accepted; the first secured frame (key confirmation).
    public static let paired = FrameType(rawValue: 0x04)
    /// A further fragment of the message whose first frame carried the same sequence.
    public static let continuation = FrameType(rawValue: 0x0F)
    /// SDK to reader: request id (UInt32) and a message.
    public static let request = FrameType(rawValue: 0x10)
    /// Reader to SDK: the request id answered and a message.
    public static let response = FrameType(rawValue: 0x11)
    /// Reader to SDK: an unsolicited message.
    public static let event = FrameType(rawValue: 0x12)
    /// Either way: a link-level error (status, reason, detail).
    public static let error = FrameType(rawValue: 0x7F)

    /// `0x10` style.
    public var description: String { "0x" + String(rawValue, radix: 16, uppercase: true) }

    /// Whether this implementation knows the type.
    public var isKnown: Bool {
        [.hello, .helloReply, .pairProof, .paired, .continuation, .request, .response, .event, .error]
            .contains(self)
    }
}

/// A frame's flag bits.
public struct FrameFlags: OptionSet, Sendable, Hashable {
    /// The byte on the wire.
    public var rawValue: UInt8
    /// Wraps a flags byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// More fragments of this message follow in continuation frames.
    public static let more = FrameFlags(rawValue: 0x01)
    /// The payload is counter (8 bytes) + data + MAC (16 bytes) under the session keys.
    public static let secured = FrameFlags(rawValue: 0x02)
    /// Every bit v1 defines; a frame with any other bit set is malformed.
    public static let all: FrameFlags = [.more, .secured]
}
