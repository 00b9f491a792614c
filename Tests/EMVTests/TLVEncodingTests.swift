import EMV
import MPOSTestSupport
import Testing

@Suite(.timeLimit(.minutes(2)))
struct TLVEncodingTests {
    @Test func encodesShortAndLongFormLengths() throws {
        #expect(try TLV(0x9F36, value: [0x00, 0x42]).encoded() == [0x9F, 0x36, 0x02, 0x00, 0x42])
        for (count, header) in [(127, [0x7F]), (128, [0x81, 0x80]), (255, [0x81, 0xFF]), (256, [0x82, 0x01, 0x00]),
            (65536, [0x83, 0x01, 0x00, 0x00])] as [(Int, [UInt8])]
        {
            let encoded = try TLV(0xC1, value: [UInt8](repeating: 1, count: count)).encoded()
            #expect(Array(encoded[1..<(1 + header.count)]) == header)
            #expect(encoded.count == 1 + header.count + count)
        }
    }

    @Test func encodesConstructedObjectsWithComputedLengths() throws {
        let template = TLV(0x77, children: [TLV(0x9F27, value: [0x80]), TLV(0x9F36, value: [0x00, 0x42])])
        #expect(try Hex.encode(template.encoded()) == "77099F2701809F36020042")
        #expect(template.encodedSize == 11)
    }

    @Test func reencodingTheBenchmarkBlobGivesItBack() throws {
        let bytes = try fixtureBytes("icc-300.hex")
        let tree = try TLVTree(decoding: bytes)
        #expect(try TLV.encode(tree.objects) == bytes)
    }

    @Test func rejectsTagsThatCannotBeEncoded() {
        #expect(throws: TLVError(.invalidTag(0x9F), at: 0)) { try TLV(0x9F, value: []).encoded() }
        #expect(throws: TLVError(.invalidTag(0), at: 3)) {
            try TLV.encode([TLV(0x95, value: [1]), TLV(0, value: [])])
        }
        #expect(throws: TLVError(.invalidTag(0x9F06_26), at: 0)) { try TLV(0x9F0626, value: []).encoded() }
        #expect(EMVTag(rawValue: 0xDF8101).isWellFormed)
        #expect(!EMVTag(rawValue: 0x1F).isWellFormed)
    }
}

/// Encoding random trees and decoding them gives the trees back.
@Suite(.timeLimit(.minutes(2)))
struct TLVRoundTripTests {
    /// A small deterministic generator so failures reproduce.
    typealias SplitMix = SplitMix64

    static func randomTag(constructed: Bool, using rng: inout SplitMix) -> EMVTag {
        let classBits = UInt32(UInt8.random(in: 0...3, using: &rng)) << 6
        let cBit: UInt32 = constructed ? 0x20 : 0
        switch Int.random(in: 1...4, using: &rng) {
        case 1:
            var number = UInt32.random(in: 1...30, using: &rng)
            if classBits == 0, !constructed, number == 0 { number = 1 }
            return EMVTag(rawValue: classBits | cBit | number)
        case let size:
            var raw = classBits | cBit | 0x1F
            for index in 1..<size {
                let last = index == size - 1
                let low = UInt32.random(in: (last ? 0 : 1)...0x7F, using: &rng)
                raw = raw << 8 | (last ? low : 0x80 | low)
            }
            return EMVTag(rawValue: raw)
        }
    }

    static func randomObject(depth: Int, using rng: inout SplitMix) -> TLV {
        if depth < 4, Int.random(in: 0..<4, using: &rng) == 0 {
            let children = (0..<Int.random(in: 0...5, using: &rng)).map { _ in randomObject(depth: depth + 1, using: &rng) }
            return TLV(randomTag(constructed: true, using: &rng), children: children)
        }
        let size = [0, 1, 2, 8, 127, 128, 300][Int.random(in: 0..<7, using: &rng)]
        let value = (0..<size).map { _ in UInt8.random(in: 0...255, using: &rng) }
        return TLV(randomTag(constructed: false, using: &rng), value: value)
    }

    @Test(arguments: 0..<200)
    func randomTreesSurviveEncodeThenDecode(seed: Int) throws {
        var rng = SplitMix(seed: UInt64(seed))
        let objects = (0..<Int.random(in: 1...6, using: &rng)).map { _ in Self.randomObject(depth: 0, using: &rng) }
        let bytes = try TLV.encode(objects)
        let tree = try TLVTree(decoding: bytes)
        #expect(tree.objects == objects)
        var walked = 0
        try BERTLV.walk(bytes) { _ in walked += 1 }
        #expect(walked == tree.count)
    }
}
