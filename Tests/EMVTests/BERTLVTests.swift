import EMV
import Foundation
import Testing

/// Loads ../shared/bench/icc-300.hex, copied into Fixtures.
func fixtureBytes(_ name: String) throws -> [UInt8] {
    let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"))
    return try Hex.decode(String(contentsOf: url, encoding: .utf8))
}

@Suite(.timeLimit(.minutes(2)))
struct BERTLVDecodingTests {
    @Test func decodesTheBenchmarkBlobIntoTheExpectedTree() throws {
        let bytes = try fixtureBytes("icc-300.hex")
        #expect(bytes.count == 300)
        let tree = try TLVTree(decoding: bytes)
        #expect(tree.count == 34)
        let roots = Array(tree.roots)
        #expect(roots.count == 1)
        #expect(roots[0].tag == 0x77)
        #expect(roots[0].length == 296)
        #expect(Array(roots[0].children).count == 33)
        #expect(tree[0x9F26].map(Array.init) == [0x7B, 0xCD, 0x3A, 0x4E, 0x1F, 0x2C, 0x5D, 0x6E])
        #expect(tree.element(at: [0x77, 0x9F27])?.value.first == 0x80)
        #expect(tree.element(at: [0x9F27]) == nil)  // not at the top level
        #expect(tree.first(0x95)?.path == [0x77, 0x95])
        #expect(tree.first(0x9F4E).map { String(decoding: $0.value, as: UTF8.self) } == "ACME SHOP 1")
    }

    @Test func valuesAreSlicesOfTheInputNotCopies() throws {
        let bytes: [UInt8] = [0x9F, 0x36, 0x02, 0x00, 0x42]
        let tree = try TLVTree(decoding: bytes)
        let value = try #require(tree[0x9F36])
        #expect(value.startIndex == 3)
        bytes.withUnsafeBufferPointer { base in
            value.withUnsafeBufferPointer { slice in
                #expect(slice.baseAddress == base.baseAddress! + 3)
            }
        }
    }

    @Test func walkVisitsEveryObjectDepthFirst() throws {
        // 70 { 5F20 "AB", A5 { 88 01 }, 9F36 0042 }, 95 5 bytes
        let bytes = try Hex.decode("700F 5F20024142 A503880101 9F36020042 95050000080000")
        var seen: [(String, Int, Int)] = []
        try BERTLV.walk(bytes) { seen.append(($0.tag.hex, $0.depth, $0.length)) }
        #expect(seen.map(\.0) == ["70", "5F20", "A5", "88", "9F36", "95"])
        #expect(seen.map(\.1) == [0, 1, 1, 2, 1, 0])
        #expect(seen.map(\.2) == [15, 2, 3, 1, 2, 5])
    }

    @Test func childrenAndParentsFollowTheNesting() throws {
        let bytes = try Hex.decode("700F 5F20024142 A503880101 9F36020042 95050000080000")
        let tree = try TLVTree(decoding: bytes)
        #expect(tree.roots.map(\.tag) == [0x70, 0x95])
        let template = try #require(tree.first(0x70))
        #expect(template.children.map(\.tag) == [0x5F20, 0xA5, 0x9F36])
        #expect(tree.first(0x88)?.parent?.tag == 0xA5)
        #expect(tree.first(0x88)?.parent?.parent?.tag == 0x70)
        #expect(tree.first(0x70)?.parent == nil)
        #expect(tree.element(at: [0x70, 0xA5, 0x88])?.value == [0x01])
        #expect(tree.first(0x95)?.children.map(\.tag) == [])
    }

    @Test func acceptsTagsOfOneToFourBytes() throws {
        let bytes = try Hex.decode("8201AA 9F2601BB DF810101CC DF81820101DD")
        let tree = try TLVTree(decoding: bytes)
        #expect(tree.roots.map(\.tag.hex) == ["82", "9F26", "DF8101", "DF818201"])
        #expect(tree.roots.map { $0.value.first } == [0xAA, 0xBB, 0xCC, 0xDD])
    }

    @Test func acceptsLongFormLengthsUpToFourBytes() throws {
        for (prefix, count) in [("8180", 128), ("820100", 256), ("83000102", 258), ("8400000103", 259)] {
            let bytes = try Hex.decode("C1" + prefix) + [UInt8](repeating: 0xAB, count: count)
            let tree = try TLVTree(decoding: bytes)
            #expect(tree.first(0xC1)?.length == count)
        }
        // EMV cards do write a long form for short values; it decodes.
        #expect(try TLVTree(decoding: Hex.decode("9F36 8102 0042"))[0x9F36] == [0x00, 0x42])
    }

    @Test func skipsZeroPaddingBeforeBetweenAndAfterObjects() throws {
        let bytes = try Hex.decode("0000 9F360200420000 7004 0000 8A00 00 00")
        let tree = try TLVTree(decoding: bytes)
        #expect(tree.roots.map(\.tag) == [0x9F36, 0x70])
        #expect(tree.first(0x70)?.children.map(\.tag) == [0x8A])
        #expect(try TLVTree(decoding: [0, 0, 0]).isEmpty)
        #expect(try TLVTree(decoding: []).isEmpty)
    }

    @Test func decodesASliceWithItsOwnIndices() throws {
        let whole = try Hex.decode("FFFF 9F36020042")
        let tree = try TLVTree(decoding: whole[2...])
        #expect(tree.first(0x9F36)?.valueRange == 5..<7)
        #expect(tree[0x9F36] == [0x00, 0x42])
        #expect(throws: TLVError(.truncatedValue(declared: 2, available: 1), at: 2)) {
            try TLVTree(decoding: whole[2..<6])
        }
    }
}

@Suite(.timeLimit(.minutes(2)))
struct BERTLVMalformedInputTests {
    /// Each malformed input with the error kind and offset it must produce.
    static let cases: [(hex: String, kind: TLVError.Kind, offset: Int)] = [
        ("9F", .truncatedTag, 0),  // announces a second tag byte
        ("9F36020042 DF81", .truncatedTag, 5),  // second byte announces a third
        ("DF81818101 01", .tagTooLong, 0),  // five tag bytes
        ("9F36", .truncatedLength, 2),  // no length byte
        ("95 82 00", .truncatedLength, 1),  // long form promises 2 bytes, has 1
        ("70 80 9F360100 0000", .indefiniteLength, 1),
        ("95 85 0000000005 0000000000", .lengthFieldTooLong, 1),
        ("95 FF", .lengthFieldTooLong, 1),
        ("95 05 000008", .truncatedValue(declared: 5, available: 3), 1),
        ("9F02 84 7FFFFFFF 00", .truncatedValue(declared: 0x7FFF_FFFF, available: 1), 2),
        // A child that runs past its parent's end, though the input goes on.
        ("70 03 9F3602 0042", .truncatedValue(declared: 2, available: 0), 4),
        ("70 04 5A 08 1234 9F36020042", .truncatedValue(declared: 8, available: 2), 3),
    ]

    @Test(arguments: 0..<cases.count)
    func rejectsMalformedInputNamingTheOffset(_ index: Int) throws {
        let (hex, kind, offset) = Self.cases[index]
        let bytes = try Hex.decode(hex)
        #expect(throws: TLVError(kind, at: offset)) { try TLVTree(decoding: bytes) }
        #expect(throws: TLVError(kind, at: offset)) { try BERTLV.walk(bytes) { _ in } }
    }

    @Test func rejectsNestingDeeperThanTheLimit() throws {
        // 33 nested constructed objects around an empty one.
        var bytes: [UInt8] = [0x70, 0x00]
        for _ in 0..<BERTLV.maximumDepth { bytes = [0x70, UInt8(bytes.count)] + bytes }
        #expect(bytes.count < 128)
        #expect(throws: TLVError(.nestingTooDeep, at: 2 * BERTLV.maximumDepth)) {
            try TLVTree(decoding: bytes)
        }
        // One level fewer decodes.
        #expect(try TLVTree(decoding: Array(bytes.dropFirst(2))).count == BERTLV.maximumDepth)
    }

    @Test func errorsDescribeTheProblemAndOffset() {
        let error = TLVError(.indefiniteLength, at: 17)
        #expect(error.description == "indefinite length (0x80) at byte offset 17 is not allowed in EMV")
        #expect(TLVError(.truncatedValue(declared: 5, available: 3), at: 1).description.contains("offset 1"))
    }

    @Test func neverTrapsOnAnyTwoOrThreeByteInput() {
        // Exhaustive over the first byte patterns that matter, with fixed tails.
        for first in UInt8.min...UInt8.max {
            for second in [0x00, 0x01, 0x7F, 0x80, 0x81, 0x84, 0x85, 0x9F, 0xFF] as [UInt8] {
                for tail in [[], [0x00], [0x01, 0x02], [0xFF, 0xFF, 0xFF]] as [[UInt8]] {
                    let bytes = [first, second] + tail
                    let tree = try? TLVTree(decoding: bytes)
                    var walked = 0
                    let walkOK = (try? BERTLV.walk(bytes) { _ in walked += 1 }) != nil
                    #expect((tree != nil) == walkOK)
                    if let tree { #expect(tree.count == walked) }
                }
            }
        }
    }
}
