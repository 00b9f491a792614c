/// One UDP datagram of the discovery protocol (docs/reader-protocol.md §9): a probe the SDK
/// sends, or the reply a reader sends back to the probe's source.
///
/// ```swift
/// let probe = DiscoveryDatagram.probe(token: 7).encoded()
/// if case .reply(_, let announcement, let port) = try DiscoveryDatagram(decoding: received) { … }
/// ```
public enum DiscoveryDatagram: Sendable, Hashable {
    /// "Which readers are there?" The token comes back in each reply.
    case probe(token: UInt32)
    /// "I am here": the reader, and the TCP port its ReaderLink listens on.
    case reply(token: UInt32, announcement: ReaderAnnouncement, tcpPort: UInt16)

    /// The four bytes every discovery datagram starts with: ASCII "MPRD".
    public static let magic: [UInt8] = [0x4D, 0x50, 0x52, 0x44]
    /// The layout version this implementation writes and reads.
    public static let version: UInt8 = 1
    /// The UDP port readers listen on for probes unless configured otherwise.
    public static let defaultPort = 47_300
    /// The longest datagram either side sends or accepts.
    public static let maximumLength = 512
    /// The longest text field, in bytes of UTF-8.
    public static let maximumFieldLength = 64

    static let probeType: UInt8 = 0x01
    static let replyType: UInt8 = 0x02

    /// The datagram's bytes.
    ///
    /// Text fields longer than ``maximumFieldLength`` bytes are cut at a character boundary;
    /// an empty field is written as it is (and refused by the receiver), so callers check
    /// what they announce.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter()
        writer.bytes = Self.magic
        writer.u8(Self.version)
        switch self {
        case .probe(let token):
            writer.u8(Self.probeType)
            writer.u32(token)
        case .reply(let token, let announcement, let port):
            writer.u8(Self.replyType)
            writer.u32(token)
            writer.u16(port)
            writer.u8(announcement.protocolVersion)
            for field in [announcement.name, announcement.serialNumber, announcement.model] {
                let utf8 = Self.cut(field)
                writer.u8(UInt8(utf8.count))
                writer.bytes += utf8
            }
        }
        return writer.bytes
    }

    /// Decodes a datagram, checking every field.
    ///
    /// - Throws: ``DiscoveryDatagramError`` naming what is wrong; nothing traps on bad input.
    public init(decoding bytes: [UInt8]) throws(DiscoveryDatagramError) {
        guard bytes.count <= Self.maximumLength else { throw .tooLong(bytes.count) }
        var reader = DiscoveryDatagramReader(bytes)
        guard try reader.bytes(4, field: "magic") == Self.magic else { throw .badMagic }
        let version = try reader.u8(field: "version")
        guard version == Self.version else { throw .unsupportedVersion(version) }
        let type = try reader.u8(field: "type")
        let token = try reader.u32(field: "token")
        switch type {
        case Self.probeType:
            self = .probe(token: token)
        case Self.replyType:
            let port = try reader.u16(field: "tcpPort")
            guard port != 0 else { throw .invalidPort }
            let protocolVersion = try reader.u8(field: "protocolVersion")
            let announcement = ReaderAnnouncement(
                name: try reader.text(field: "name"), serialNumber: try reader.text(field: "serialNumber"),
                model: try reader.text(field: "model"), protocolVersion: protocolVersion)
            self = .reply(token: token, announcement: announcement, tcpPort: port)
        default:
            throw .unknownType(type)
        }
        guard reader.isAtEnd else { throw .trailingBytes(reader.remaining) }
    }

    /// The UTF-8 of `text`, cut at a character boundary to ``maximumFieldLength`` bytes.
    static func cut(_ text: String) -> [UInt8] {
        var utf8 = Array(text.utf8)
        guard utf8.count > maximumFieldLength else { return utf8 }
        var end = maximumFieldLength
        while end > 0, utf8[end] & 0xC0 == 0x80 { end -= 1 }
        utf8.removeSubrange(end...)
        return utf8
    }
}

/// Why a discovery datagram was refused. Receivers drop such datagrams and carry on.
public enum DiscoveryDatagramError: Error, Sendable, Hashable {
    /// Longer than ``DiscoveryDatagram/maximumLength`` bytes (the length is given).
    case tooLong(Int)
    /// The datagram ends inside the named field.
    case truncated(field: String)
    /// It does not start with "MPRD".
    case badMagic
    /// A layout version this side does not read.
    case unsupportedVersion(UInt8)
    /// Neither a probe nor a reply.
    case unknownType(UInt8)
    /// A reply names TCP port 0.
    case invalidPort
    /// A text field is empty or longer than ``DiscoveryDatagram/maximumFieldLength`` bytes.
    case invalidFieldLength(field: String, length: Int)
    /// A text field is not valid UTF-8.
    case invalidUTF8(field: String)
    /// Bytes follow the last field (how many).
    case trailingBytes(Int)
}

/// A bounds-checked cursor over one datagram.
struct DiscoveryDatagramReader {
    private let data: [UInt8]
    private var index = 0

    init(_ data: [UInt8]) { self.data = data }

    var isAtEnd: Bool { index == data.count }
    var remaining: Int { data.count - index }

    mutating func bytes(_ count: Int, field: String) throws(DiscoveryDatagramError) -> [UInt8] {
        guard count <= remaining else { throw .truncated(field: field) }
        defer { index += count }
        return Array(data[index..<index + count])
    }

    mutating func u8(field: String) throws(DiscoveryDatagramError) -> UInt8 {
        try bytes(1, field: field)[0]
    }

    mutating func u16(field: String) throws(DiscoveryDatagramError) -> UInt16 {
        try bytes(2, field: field).reduce(0) { $0 << 8 | UInt16($1) }
    }

    mutating func u32(field: String) throws(DiscoveryDatagramError) -> UInt32 {
        try bytes(4, field: field).reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// A u8 length, then that many bytes of UTF-8: 1 to the maximum field length.
    mutating func text(field: String) throws(DiscoveryDatagramError) -> String {
        let length = Int(try u8(field: field))
        guard (1...DiscoveryDatagram.maximumFieldLength).contains(length) else {
            throw .invalidFieldLength(field: field, length: length)
        }
        let utf8 = try bytes(length, field: field)
        // Decoding repairs bad sequences with U+FFFD, so a repaired text no longer matches.
        let text = String(decoding: utf8, as: UTF8.self)
        guard Array(text.utf8) == utf8 else { throw .invalidUTF8(field: field) }
        return text
    }
}
