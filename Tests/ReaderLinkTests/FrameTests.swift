import Testing

@testable import ReaderLink

@Suite(.timeLimit(.minutes(2)))
struct FrameTests {
    @Test func crcMatchesTheStandardCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
    }

    @Test func encodesTheDocumentedLayout() {
        let frame = Frame(type: .event, flags: [.more], sequence: 0x0102, payload: [0xAA, 0xBB])
        let bytes = frame.encoded()
        #expect(bytes.count == Frame.overhead + 2)
        #expect(Array(bytes[0..<11]) == [0xA5, 0x4C, 0x01, 0x12, 0x01, 0x01, 0x02, 0x00, 0x02, 0xAA, 0xBB])
        let crc = CRC32.checksum(bytes[2..<11])
        #expect(
            Array(bytes[11...]) == [
                UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF),
            ])
    }

    @Test func decodesFramesFedOneByteAtATime() throws {
        let frames = (0..<5).map {
            Frame(type: .request, sequence: UInt16($0), payload: Array(repeating: UInt8($0), count: $0 * 100))
        }
        var decoder = FrameDecoder()
        var decoded: [Frame] = []
        for byte in frames.flatMap({ $0.encoded() }) {
            decoder.append([byte])
            while let frame = try decoder.nextFrame() { decoded.append(frame) }
        }
        #expect(decoded == frames)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func resynchronisesAfterGarbageAndHalfFrames() throws {
        let good = Frame(type: .event, sequence: 7, payload: Array(0..<40))
        let other = Frame(type: .response, sequence: 8, payload: [1, 2, 3])
        let half = Array(
            Frame(type: .event, sequence: 6, payload: Array(repeating: 9, count: 30)).encoded().prefix(25))
        var stream: [UInt8] = [0x00, 0xA5, 0xFF, 0x4C, 0xA5]  // garbage, including a lone magic byte
        stream += half + good.encoded() + [0x13, 0x37] + other.encoded()
        var decoder = FrameDecoder()
        decoder.append(stream)
        var decoded: [Frame] = []
        var errors = 0
        while true {
            do {
                guard let frame = try decoder.nextFrame() else { break }
                decoded.append(frame)
            } catch {
                errors += 1
            }
        }
        #expect(decoded == [good, other])
        #expect(errors >= 1)  // the half frame fails its checksum
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func rejectsAnOversizeLengthFromTheHeaderAlone() {
        var decoder = FrameDecoder()
        decoder.append([0xA5, 0x4C, 0x01, 0x10, 0x00, 0x00, 0x01, 0xFF, 0xFF])
        #expect(throws: ReaderLinkError.malformed(detail: "frame length 65535 exceeds 1024")) {
            try decoder.nextFrame()
        }
        #expect((try? decoder.nextFrame()) == nil)
    }

    @Test func rejectsBadChecksumsFlagsAndFormats() {
        var bytes = Frame(type: .event, sequence: 1, payload: [1, 2, 3]).encoded()
        bytes[10] ^= 0x01
        var decoder = FrameDecoder()
        decoder.append(bytes)
        #expect(throws: ReaderLinkError.malformed(detail: "frame checksum mismatch")) {
            try decoder.nextFrame()
        }

        var flagged = Frame(type: .event, sequence: 1, payload: []).encoded()
        flagged[4] = 0x80
        decoder = FrameDecoder()
        decoder.append(flagged)
        #expect(throws: ReaderLinkError.malformed(detail: "reserved frame flag bits set")) {
            try decoder.nextFrame()
        }

        var format = Frame(type: .event, sequence: 1, payload: []).encoded()
        format[2] = 9
        decoder = FrameDecoder()
        decoder.append(format)
        #expect(throws: ReaderLinkError.malformed(detail: "unknown frame format 9")) {
            try decoder.nextFrame()
        }
    }

    @Test func fragmentsAtTwentyByteWritesAndReassembles() throws {
        let message = (0..<5000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        var sender = LinkWire(maximumWriteLength: 20)
        var receiver = LinkWire(maximumWriteLength: 20)
        let writes = sender.writes(type: .event, data: message)
        #expect(writes.allSatisfy { $0.count <= 20 })
        #expect(writes.count > 250)
        var received: [MessageAssembler.Message] = []
        for write in writes {
            for inbound in receiver.receive(write) {
                guard case .message(let m) = inbound else {
                    Issue.record("unexpected \(inbound)")
                    continue
                }
                received.append(m)
            }
        }
        #expect(received.count == 1)
        #expect(received.first?.type == .event)
        #expect(received.first?.data == message)
    }

    @Test func assemblerRejectsOrphanAndMismatchedContinuations() throws {
        var assembler = MessageAssembler()
        #expect(throws: ReaderLinkError.self) {
            try assembler.add(type: .continuation, flags: [], sequence: 1, data: [1])
        }
        #expect(try assembler.add(type: .event, flags: .more, sequence: 2, data: [1]) == nil)
        #expect(throws: ReaderLinkError.self) {
            try assembler.add(type: .continuation, flags: [], sequence: 3, data: [2])
        }
        #expect(try assembler.add(type: .event, flags: .more, sequence: 4, data: [1]) == nil)
        let done = try assembler.add(type: .continuation, flags: [], sequence: 4, data: [2])
        #expect(done?.data == [1, 2])
    }

    @Test func assemblerDropsMessagesAboveTheLimit() throws {
        var assembler = MessageAssembler()
        let piece = [UInt8](repeating: 0, count: 1000)
        _ = try assembler.add(type: .event, flags: .more, sequence: 1, data: piece)
        var threw = false
        for _ in 0..<300 {
            do { _ = try assembler.add(type: .continuation, flags: .more, sequence: 1, data: piece) } catch {
                threw = true
                break
            }
        }
        #expect(threw)
    }

    @Test func sharedSecretAcceptsExactly32BytesOr64HexCharacters() throws {
        let hex = String(repeating: "0123456789abcdefABCDEF0123456789", count: 2)
        let secret = try SharedSecret(hex: hex)
        #expect(secret == (try SharedSecret(bytes: try SharedSecret(hex: hex).bytes)))
        #expect("\(secret)" == "SharedSecret(<redacted>)")
        #expect(throws: ReaderLinkError.self) { try SharedSecret(hex: String(hex.dropLast())) }
        #expect(throws: ReaderLinkError.self) { try SharedSecret(hex: String(hex.dropLast()) + "g") }
        #expect(throws: ReaderLinkError.self) { try SharedSecret(bytes: [UInt8](repeating: 1, count: 31)) }
    }

    @Test func errorsMapToReaderLinkCodes() {
        let errors: [ReaderLinkError] = [
            .linkClosed, .timeout, .malformed(detail: "x"), .integrity(detail: "x"), .sharedSecretInvalid,
            .invalidSharedSecret(detail: "x"), .unsupportedVersion(2), .rejected(.invalidData, detail: "x"),
            .notAllowed(detail: "x"),
        ]
        let codes = errors.map(\.mposError.code)
        #expect(Set(codes).count == errors.count)
        #expect(codes.allSatisfy { (3100...3199).contains($0) })
    }
}
