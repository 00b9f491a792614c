import Foundation
import MPOSCore
import MPOSTestSupport
import ReaderLink
import Testing

@testable import MPOSKit

/// The cardholder's signature: strokes rendered to dots, a PNG any decoder reads (checked
/// here chunk by chunk, CRCs and Adler-32 included) and a printer bitmap.
@Suite(.timeLimit(.minutes(1)))
struct CardholderSignatureTests {
    /// A PNG taken apart: its chunks (type, data), each CRC checked.
    static func chunks(_ png: [UInt8]) -> [(String, [UInt8])] {
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var chunks: [(String, [UInt8])] = []
        var index = 8
        while index + 12 <= png.count {
            let length = Int(Self.u32(png, index))
            let typed = Array(png[(index + 4)..<(index + 8 + length)])
            #expect(Self.u32(png, index + 8 + length) == CRC32.checksum(typed))
            chunks.append((String(decoding: typed.prefix(4), as: UTF8.self), Array(typed.dropFirst(4))))
            index += 12 + length
        }
        #expect(index == png.count)
        return chunks
    }

    static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        bytes[at..<(at + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The bytes of a zlib stream of stored blocks, its header and Adler-32 checked.
    static func inflateStored(_ stream: [UInt8]) -> [UInt8] {
        #expect((UInt16(stream[0]) << 8 | UInt16(stream[1])) % 31 == 0 && stream[0] & 0x0F == 8)
        var out: [UInt8] = []
        var index = 2
        while true {
            let final = stream[index] & 1 == 1
            #expect(stream[index] >> 1 & 3 == 0)  // stored
            let length = Int(stream[index + 1]) | Int(stream[index + 2]) << 8
            let complement = Int(stream[index + 3]) | Int(stream[index + 4]) << 8
            #expect(length ^ 0xFFFF == complement)
            out += stream[(index + 5)..<(index + 5 + length)]
            index += 5 + length
            if final { break }
        }
        #expect(Self.u32(stream, index) == PNGEncoder.adler32(out) && index + 4 == stream.count)
        return out
    }

    static func diagonal() throws -> CardholderSignature {
        try CardholderSignature(
            width: 12, height: 6, strokes: [[.init(x: 0, y: 0), .init(x: 10, y: 4)], [.init(x: 11, y: 5)]])
    }

    @Test func adler32MatchesZlibsKnownValue() {
        #expect(PNGEncoder.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
        #expect(PNGEncoder.adler32([]) == 1)
    }

    @Test func thePNGHasAValidHeaderChunksAndPixels() throws {
        let diagonal = try Self.diagonal()
        let png = diagonal.png()
        let chunks = Self.chunks(png)
        #expect(chunks.map(\.0) == ["IHDR", "IDAT", "IEND"])
        let header = chunks[0].1
        #expect(Self.u32(header, 0) == 12 && Self.u32(header, 4) == 6)
        #expect(Array(header[8...]) == [8, 0, 0, 0, 0])
        let raw = Self.inflateStored(chunks[1].1)
        #expect(raw.count == (12 + 1) * 6)
        let dots = diagonal.inkedDots()
        for row in 0..<6 {
            #expect(raw[row * 13] == 0)  // no filter
            let pixels = raw[(row * 13 + 1)..<((row + 1) * 13)]
            #expect(Array(pixels) == dots[(row * 12)..<((row + 1) * 12)].map { $0 ? 0 : 255 })
        }
        // The stroke's ends and the lone dot are inked; a corner it never passed is not.
        #expect(dots[0] && dots[4 * 12 + 10] && dots[5 * 12 + 11] && !dots[5 * 12 + 0])
    }

    @Test func aLargePadSpansSeveralStoredBlocks() throws {
        let seed = SplitMix64.testSeed(environment: ProcessInfo.processInfo.environment)
        var random = SplitMix64(seed: seed)
        let points = (0..<40).map { _ in
            CardholderSignature.Point(x: Int(random.next() % 400), y: Int(random.next() % 200))
        }
        let signature = try CardholderSignature(width: 400, height: 200, strokes: [points])
        let chunks = Self.chunks(signature.png())
        let raw = Self.inflateStored(chunks[1].1)
        #expect(raw.count == 401 * 200 && raw.count > PNGEncoder.storedBlockLimit)
        #expect(raw.contains(0) && raw.contains(255), "seed \(seed) (MPOS_TEST_SEED replays it)")
    }

    @Test func theBitmapInksTheSameDots() throws {
        let diagonal = try Self.diagonal()
        let bitmap = try diagonal.bitmap()
        let dots = diagonal.inkedDots()
        for y in 0..<6 { for x in 0..<12 { #expect(bitmap.isBlack(x: x, y: y) == dots[y * 12 + x]) } }
    }

    @Test func aPointOffThePadOrAnEmptySignatureIsRefused() {
        #expect(throws: ReaderLinkError.self) {
            try CardholderSignature(width: 10, height: 10, strokes: [[.init(x: 10, y: 0)]])
        }
        #expect(throws: ReaderLinkError.self) { try CardholderSignature(width: 10, height: 10, strokes: [[]]) }
        #expect(throws: ReaderLinkError.self) {
            try CardholderSignature(width: 0, height: 10, strokes: [[.init(x: 0, y: 0)]])
        }
    }
}

/// The pad's points on the wire: they travel with the signature prompt and a point off the
/// pad is a malformed message.
@Suite(.timeLimit(.minutes(1)))
struct SignaturePadWireTests {
    @Test func thePadSignatureRoundTripsWithThePrompt() throws {
        let pad = try CardholderSignature(width: 5, height: 4, strokes: [[.init(x: 0, y: 3), .init(x: 4, y: 0)]])
        let message = ReaderMessage.signatureRequired(transactionID: "t1", signature: pad)
        #expect(try ReaderMessage(decoding: message.encoded()) == message)
        #expect(try ReaderMessage(decoding: ReaderMessage.signatureRequired(transactionID: "t1").encoded())
            == .signatureRequired(transactionID: "t1", signature: nil))
    }

    @Test func aPointOffThePadIsMalformed() throws {
        let pad = try CardholderSignature(width: 5, height: 4, strokes: [[.init(x: 4, y: 3)]])
        var bytes = ReaderMessage.signatureRequired(transactionID: "t1", signature: pad).encoded()
        bytes[bytes.count - 1] = 4  // y = 4 on a pad 4 dots high
        #expect(throws: ReaderLinkError.self) { try ReaderMessage(decoding: bytes) }
    }
}
