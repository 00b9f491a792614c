/// Why an error frame was sent (its reason byte).
public enum LinkErrorReason: UInt8, Sendable, Hashable, CaseIterable {
    /// Anything else.
    case general = 0
    /// A frame that failed its checksum, had bad flags, an oversize length or broke fragmentation.
    case malformedFrame = 1
    /// A frame type the receiver does not know, or may not receive.
    case unknownFrameType = 2
    /// No protocol version in common; the error frame lists the sender's versions.
    case unsupportedVersion = 3
    /// The pairing proof did not verify: the shared secrets differ.
    case sharedSecretInvalid = 4
    /// A message frame arrived before pairing completed.
    case notPaired = 5
    /// A frame failed authentication or its counter; the sender closes the link.
    case integrity = 6
    /// The reader is paired with another SDK (it serves one at a time); the detail names who
    /// holds it, and the reader closes this link.
    case readerInUse = 7
}

/// The body of an error frame: status (UInt16) ‖ reason (UInt8) ‖ version count (UInt8) ‖
/// versions ‖ detail (UTF-8, the rest).
struct LinkErrorBody: Sendable, Hashable {
    var status: UInt16
    var reason: LinkErrorReason
    var versions: [UInt8] = []
    var detail: String

    func encoded() -> [UInt8] {
        var bytes: [UInt8] = [
            UInt8(status >> 8), UInt8(status & 0xFF), reason.rawValue, UInt8(versions.count),
        ]
        bytes += versions
        bytes += Array(detail.utf8.prefix(200))
        return bytes
    }

    init(status: UInt16, reason: LinkErrorReason, versions: [UInt8] = [], detail: String) {
        self.status = status
        self.reason = reason
        self.versions = versions
        self.detail = detail
    }

    init(decoding bytes: some Collection<UInt8>) throws(ReaderLinkError) {
        let b = Array(bytes)
        guard b.count >= 4, b.count >= 4 + Int(b[3]) else {
            throw .malformed(detail: "error frame too short")
        }
        status = UInt16(b[0]) << 8 | UInt16(b[1])
        reason = LinkErrorReason(rawValue: b[2]) ?? .general
        versions = Array(b[4..<(4 + Int(b[3]))])
        detail = String(decoding: b[(4 + Int(b[3]))...], as: UTF8.self)
    }
}

/// The byte-level half of a session: decoding, authentication, reassembly, and the reverse for
/// sending. Pure state; the session actors drive it.
struct LinkWire: Sendable {
    enum Inbound: Sendable {
        /// A complete, authenticated (once paired) message.
        case message(MessageAssembler.Message)
        /// A bad frame; answer with an error frame and carry on.
        case badFrame(ReaderLinkError)
        /// Authentication or counter failure; close the session.
        case integrity(ReaderLinkError)
    }

    private var decoder = FrameDecoder()
    private var assembler = MessageAssembler()
    private var channel: SecureChannel?
    /// While waiting for the reader's `paired` frame, the SDK still accepts a plain error frame
    /// (the reader refusing the proof).
    var acceptsPlainErrors = false
    private var nextSequence: UInt16 = 0
    let maximumWriteLength: Int?

    init(maximumWriteLength: Int?) {
        self.maximumWriteLength = maximumWriteLength.map { max(1, $0) }
    }

    var isSecured: Bool { channel != nil }

    mutating func secure(with channel: SecureChannel) { self.channel = channel }

    /// Feeds received bytes; returns what they completed, in order. Processing stops at the
    /// first integrity failure.
    mutating func receive(_ bytes: [UInt8]) -> [Inbound] {
        decoder.append(bytes)
        var results: [Inbound] = []
        while true {
            let frame: Frame
            do {
                guard let next = try decoder.nextFrame() else { break }
                frame = next
            } catch {
                results.append(.badFrame(error))
                continue
            }
            var flags = frame.flags
            let data: ArraySlice<UInt8>
            if channel != nil, acceptsPlainErrors, frame.type == .error, !frame.flags.contains(.secured) {
                data = frame.payload[...]
            } else if channel != nil {
                do {
                    data = try channel!.open(frame)
                } catch {
                    results.append(.integrity(error))
                    return results
                }
                acceptsPlainErrors = false
                flags.remove(.secured)
            } else {
                guard !frame.flags.contains(.secured) else {
                    results.append(.badFrame(.malformed(detail: "secured frame before pairing")))
                    continue
                }
                data = frame.payload[...]
            }
            do {
                if let message = try assembler.add(
                    type: frame.type, flags: flags, sequence: frame.sequence, data: data)
                {
                    results.append(.message(message))
                }
            } catch {
                results.append(.badFrame(error))
            }
        }
        return results
    }

    /// The writes that carry one message: its fragments as frames (secured once paired),
    /// concatenated and cut to the transport's write length.
    mutating func writes(type: FrameType, data: [UInt8]) -> [[UInt8]] {
        let sequence = nextSequence
        nextSequence &+= 1
        let pieces = MessageAssembler.fragments(
            of: data, maximumFragment: channel == nil ? Frame.maximumPayloadLength : SecureChannel.maximumData
        )
        var bytes: [UInt8] = []
        for (index, piece) in pieces.enumerated() {
            let frameType = index == 0 ? type : .continuation
            let flags: FrameFlags = index < pieces.count - 1 ? .more : []
            let frame: Frame
            if channel != nil {
                frame = channel!.seal(type: frameType, flags: flags, sequence: sequence, data: piece)
            } else {
                frame = Frame(type: frameType, flags: flags, sequence: sequence, payload: Array(piece))
            }
            bytes += frame.encoded()
        }
        guard let limit = maximumWriteLength, bytes.count > limit else { return [bytes] }
        return stride(from: 0, to: bytes.count, by: limit).map {
            Array(bytes[$0..<min($0 + limit, bytes.count)])
        }
    }

    /// Writes for a plain (unsecured) frame, even after pairing: only for the SDK's refusal
    /// before the channel is confirmed.
    func plainWrites(type: FrameType, data: [UInt8]) -> [[UInt8]] {
        let bytes = Frame(type: type, sequence: 0, payload: data).encoded()
        guard let limit = maximumWriteLength, bytes.count > limit else { return [bytes] }
        return stride(from: 0, to: bytes.count, by: limit).map {
            Array(bytes[$0..<min($0 + limit, bytes.count)])
        }
    }
}

extension UInt32 {
    var bigEndianBytes: [UInt8] {
        [UInt8(self >> 24), UInt8((self >> 16) & 0xFF), UInt8((self >> 8) & 0xFF), UInt8(self & 0xFF)]
    }
    init?(bigEndianPrefixOf bytes: some Collection<UInt8>) {
        guard bytes.count >= 4 else { return nil }
        self = bytes.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }
}
