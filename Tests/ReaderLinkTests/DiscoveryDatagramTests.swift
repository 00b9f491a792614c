import Testing

@testable import ReaderLink

/// The discovery datagram codec of docs/reader-protocol.md §9.
@Suite(.timeLimit(.minutes(2)))
struct DiscoveryDatagramTests {
    static let desk = ReaderAnnouncement(name: "Desk", serialNumber: "S1", model: "R1", protocolVersion: 1)
    /// The reply example of §9.1, byte for byte.
    static let documentedReply = bytes(
        "4D 50 52 44 01 02 00 00 00 07 0F A0 01 04 44 65 73 6B 02 53 31 02 52 31")

    static func bytes(_ hex: String) -> [UInt8] {
        hex.split(separator: " ").map { UInt8($0, radix: 16)! }
    }

    static func decodeError(_ bytes: [UInt8]) -> DiscoveryDatagramError? {
        do {
            _ = try DiscoveryDatagram(decoding: bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func theDocumentedExamplesEncodeAndDecode() throws {
        #expect(DiscoveryDatagram.probe(token: 7).encoded() == Self.bytes("4D 50 52 44 01 01 00 00 00 07"))
        let reply = DiscoveryDatagram.reply(token: 7, announcement: Self.desk, tcpPort: 4000)
        #expect(reply.encoded() == Self.documentedReply)
        #expect(try DiscoveryDatagram(decoding: Self.documentedReply) == reply)
    }

    @Test func probesAndRepliesRoundTrip() throws {
        let unicode = ReaderAnnouncement(
            name: "Caisse n° 2 ☕", serialNumber: "MPSIM-000042", model: "Simulated Reader R1")
        for datagram in [
            DiscoveryDatagram.probe(token: 0), .probe(token: .max),
            .reply(token: 0xDEAD_BEEF, announcement: unicode, tcpPort: 65535),
            .reply(token: 1, announcement: Self.desk, tcpPort: 1),
        ] {
            #expect(try DiscoveryDatagram(decoding: datagram.encoded()) == datagram)
        }
    }

    @Test func longNamesAreCutAtACharacterBoundary() throws {
        let long = ReaderAnnouncement(name: String(repeating: "é", count: 40), serialNumber: "S", model: "M")
        let decoded = try DiscoveryDatagram(
            decoding: DiscoveryDatagram.reply(token: 1, announcement: long, tcpPort: 9).encoded())
        guard case .reply(_, let announcement, _) = decoded else { Issue.record("not a reply"); return }
        #expect(announcement.name == String(repeating: "é", count: 32))
    }

    @Test func everyMalformedClassIsRejectedWithItsError() {
        let reply = Self.documentedReply
        var badUTF8 = reply
        badUTF8[14] = 0xFF  // first byte of "Desk"
        var emptyName = Array(reply[0..<13]) + [0] + Array(reply[18...])
        emptyName[13] = 0
        let cases: [([UInt8], DiscoveryDatagramError)] = [
            ([], .truncated(field: "magic")),
            (Array(reply[0..<3]), .truncated(field: "magic")),
            ([0x4D, 0x50, 0x52, 0x45] + reply[4...], .badMagic),
            (Array(reply[0..<4]) + [2] + reply[5...], .unsupportedVersion(2)),
            (Array(reply[0..<5]) + [3] + reply[6...], .unknownType(3)),
            (Array(reply[0..<8]), .truncated(field: "token")),
            (Array(reply[0..<11]), .truncated(field: "tcpPort")),
            (Array(reply[0..<10]) + [0, 0] + reply[12...], .invalidPort),
            (Array(reply[0..<12]), .truncated(field: "protocolVersion")),
            (Array(reply[0..<16]), .truncated(field: "name")),
            (Array(reply[0..<18]), .truncated(field: "serialNumber")),
            (Array(reply.dropLast()), .truncated(field: "model")),
            (emptyName, .invalidFieldLength(field: "name", length: 0)),
            (
                Array(reply[0..<13]) + [65] + [UInt8](repeating: 0x41, count: 65) + reply[18...],
                .invalidFieldLength(field: "name", length: 65)
            ),
            (badUTF8, .invalidUTF8(field: "name")),
            (reply + [0], .trailingBytes(1)),
            (DiscoveryDatagram.probe(token: 1).encoded() + [9, 9], .trailingBytes(2)),
            (reply + [UInt8](repeating: 0, count: 600), .tooLong(reply.count + 600)),
        ]
        for (bytes, expected) in cases {
            #expect(Self.decodeError(bytes) == expected, "\(bytes.count) bytes")
        }
    }

    @Test func noPrefixOrMutationOfAReplyTraps() {
        let reply = Self.documentedReply
        for length in 0..<reply.count { #expect(Self.decodeError(Array(reply[0..<length])) != nil) }
        // Every single-byte change decodes to something valid or to a typed error, never a trap.
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2_000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            var mutated = reply
            mutated[Int(seed >> 33) % reply.count] = UInt8(truncatingIfNeeded: seed >> 17)
            _ = Self.decodeError(mutated)
        }
    }
}
