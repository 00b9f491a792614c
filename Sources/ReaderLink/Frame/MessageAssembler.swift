/// Splits a message into fragments that fit a frame, and puts received fragments back together.
///
/// The first frame of a message carries its real type; further fragments travel as
/// ``FrameType/continuation`` frames with the same sequence number, and every frame but the
/// last has ``FrameFlags/more`` set.
public struct MessageAssembler: Sendable {
    /// The largest reassembled message accepted (256 KiB); a longer one is dropped as soon as
    /// it exceeds the limit.
    public static let maximumMessageLength = 256 * 1024

    /// A message put back together.
    public struct Message: Sendable, Hashable {
        /// The type of the message's first frame.
        public var type: FrameType
        /// The sequence number its frames carried.
        public var sequence: UInt16
        /// The concatenated data of its fragments.
        public var data: [UInt8]
    }

    private var pending: Message?

    /// Creates an assembler with nothing pending.
    public init() {}

    /// Cuts `data` into pieces of at most `maximumFragment` bytes (at least one piece, which
    /// may be empty).
    public static func fragments(of data: [UInt8], maximumFragment: Int) -> [ArraySlice<UInt8>] {
        precondition(maximumFragment > 0)
        if data.isEmpty { return [data[...]] }
        return stride(from: 0, to: data.count, by: maximumFragment).map {
            data[$0..<min($0 + maximumFragment, data.count)]
        }
    }

    /// Adds one frame's (already authenticated) data. Returns the message when this frame
    /// completes it, nil when more fragments are expected. Throws `.malformed` for a
    /// continuation without a start, a sequence mismatch, a new message while one is
    /// incomplete, or a message above ``maximumMessageLength``; the incomplete message is
    /// dropped.
    public mutating func add(
        type: FrameType, flags: FrameFlags, sequence: UInt16, data: some Collection<UInt8>
    ) throws(ReaderLinkError) -> Message? {
        if type == .continuation {
            guard var message = pending else {
                throw .malformed(detail: "continuation frame without a first fragment")
            }
            pending = nil
            guard message.sequence == sequence else {
                throw .malformed(detail: "continuation frame for another message")
            }
            guard message.data.count + data.count <= Self.maximumMessageLength else {
                throw .malformed(detail: "message exceeds \(Self.maximumMessageLength) bytes")
            }
            message.data.append(contentsOf: data)
            if flags.contains(.more) {
                pending = message
                return nil
            }
            return message
        }
        let abandoned = pending != nil
        pending = nil
        let message = Message(type: type, sequence: sequence, data: Array(data))
        if flags.contains(.more) {
            pending = message
        } else if !abandoned {
            return message
        }
        if abandoned {
            throw .malformed(detail: "a new message started before the previous one was complete")
        }
        return nil
    }
}
