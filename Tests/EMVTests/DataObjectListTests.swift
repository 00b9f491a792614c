import EMV
import Testing

@Suite(.timeLimit(.minutes(2)))
struct DataObjectListTests {
    // 9F02 06 9F03 06 9F1A 02 95 05 5F2A 02 9A 03 9C 01 9F37 04
    let cdol1Bytes: [UInt8] = [
        0x9F, 0x02, 0x06, 0x9F, 0x03, 0x06, 0x9F, 0x1A, 0x02, 0x95, 0x05, 0x5F, 0x2A, 0x02,
        0x9A, 0x03, 0x9C, 0x01, 0x9F, 0x37, 0x04,
    ]

    @Test func parsesARealisticCDOL1() throws {
        let dol = try DataObjectList(bytes: cdol1Bytes)
        #expect(dol.entries.map(\.tag) == [0x9F02, 0x9F03, 0x9F1A, 0x95, 0x5F2A, 0x9A, 0x9C, 0x9F37])
        #expect(dol.entries.map(\.length) == [6, 6, 2, 5, 2, 3, 1, 4])
        #expect(dol.totalLength == 29)
        #expect(dol.bytes == cdol1Bytes)
    }

    @Test func fillsTheCDOL1InListOrder() throws {
        let dol = try DataObjectList(bytes: cdol1Bytes)
        let values: [EMVTag: [UInt8]] = [
            0x9F02: [0x00, 0x00, 0x00, 0x00, 0x10, 0x00],
            0x9F1A: [0x08, 0x26],
            0x95: [0x00, 0x00, 0x08, 0x00, 0x00],
            0x5F2A: [0x08, 0x26],
            0x9A: [0x24, 0x03, 0x15],
            0x9C: [0x00],
            0x9F37: [0xDE, 0xAD, 0xBE, 0xEF],
        ]
        let data = dol.fill { values[$0] }
        #expect(Hex.encode(data) == "000000001000" + "000000000000" + "0826" + "0000080000" + "0826" + "240315" + "00" + "DEADBEEF")
        let split = try #require(dol.split(data))
        #expect(split.map(\.tag) == dol.entries.map(\.tag))
        #expect(split[3].value == [0x00, 0x00, 0x08, 0x00, 0x00])
        #expect(dol.split(data.dropLast()) == nil)
    }

    @Test func numericValuesKeepTheRightmostBytesAndPadOnTheLeft() throws {
        let dol = DataObjectList(entries: [.init(tag: 0x9F02, length: 4), .init(tag: 0x9F03, length: 8)])
        let amount: [UInt8] = [0x00, 0x00, 0x00, 0x12, 0x34, 0x56]
        let data = dol.fill { _ in amount }
        #expect(data == [0x00, 0x12, 0x34, 0x56] + [0x00, 0x00, 0x00, 0x00, 0x00, 0x12, 0x34, 0x56])
    }

    @Test func binaryAndTextValuesKeepTheLeftmostBytesAndPadOnTheRight() throws {
        let dol = DataObjectList(entries: [.init(tag: 0x9F37, length: 2), .init(tag: 0x9F16, length: 4)])
        let values: [EMVTag: [UInt8]] = [0x9F37: [0xDE, 0xAD, 0xBE, 0xEF], 0x9F16: Array("AB".utf8)]
        #expect(dol.fill { values[$0] } == [0xDE, 0xAD, 0x41, 0x42, 0x00, 0x00])
    }

    @Test func compressedNumericPadsWithFF() {
        let dol = DataObjectList(entries: [.init(tag: 0x5A, length: 10)])
        let pan: [UInt8] = [0x47, 0x61, 0x73, 0x90, 0x01, 0x01, 0x01, 0x19]
        #expect(dol.fill { _ in pan } == pan + [0xFF, 0xFF])
        #expect(dol.fill { _ in pan + [0x12, 0x34, 0x56] } == pan + [0x12, 0x34])
    }

    @Test func missingUnknownAndConstructedTagsAreZeros() {
        let dol = DataObjectList(entries: [
            .init(tag: 0x9F02, length: 6), .init(tag: 0xDF7F, length: 3), .init(tag: 0x70, length: 2),
        ])
        let data = dol.fill { tag in tag == 0x70 ? [0xAA, 0xBB] : nil }
        #expect(data == [UInt8](repeating: 0, count: 11))
        let unknown = DataObjectList(entries: [.init(tag: 0xDF7F, length: 3)])
        #expect(unknown.fill { _ in [0x01] } == [0x01, 0x00, 0x00])  // unknown format: binary
    }

    @Test func reportsATruncatedTagAtItsOffset() {
        #expect(throws: DOLError.truncatedTag(offset: 3)) { try DataObjectList(bytes: [0x9F, 0x02, 0x06, 0x9F]) }
        #expect(throws: DOLError.truncatedTag(offset: 0)) { try DataObjectList(bytes: [0xDF, 0x81]) }
    }

    @Test func reportsAMissingLengthAtItsOffset() {
        #expect(throws: DOLError.missingLength(tag: 0x9F37, offset: 5)) {
            try DataObjectList(bytes: [0x9F, 0x02, 0x06, 0x9F, 0x37])
        }
        #expect(throws: DOLError.missingLength(tag: 0x95, offset: 1)) { try DataObjectList(bytes: [0x95]) }
        #expect(DOLError.missingLength(tag: 0x95, offset: 1).description
            == "malformed DOL: tag 95 has no length byte at byte offset 1")
    }

    @Test func reportsATagLongerThanFourBytes() {
        #expect(throws: DOLError.tagTooLong(offset: 0)) {
            try DataObjectList(bytes: [0xDF, 0x81, 0x81, 0x81, 0x01, 0x01])
        }
    }

    @Test func emptyListFillsNothing() throws {
        let dol = try DataObjectList(bytes: [])
        #expect(dol.entries.isEmpty)
        #expect(dol.fill { _ in [1] }.isEmpty)
    }
}
