import Foundation
@testable import PrinterSimulator
import Testing

@Suite(.timeLimit(.minutes(1)))
struct QRCodeTests {
    private func hex(_ text: String) -> [UInt8] {
        text.split(separator: " ").map { UInt8($0, radix: 16)! }
    }

    /// ISO/IEC 18004's worked example: "01234567" as version 1-M.
    @Test func reedSolomonMatchesTheStandardsExample() {
        let data = hex("10 20 0C 56 61 80 EC 11 EC 11 EC 11 EC 11 EC 11")
        #expect(ReedSolomon.remainder(of: data, degree: 10) == hex("A5 24 D4 C1 ED 36 C7 87 2C 55"))
    }

    /// The widely published "HELLO WORLD" version 1-M tutorial example.
    @Test func reedSolomonMatchesHelloWorld() {
        let data = hex("20 5B 0B 78 D1 72 DC 4D 43 40 EC 11 EC 11 EC 11")
        #expect(ReedSolomon.remainder(of: data, degree: 10) == hex("C4 23 27 77 EB D7 E7 E2 5D 17"))
    }

    @Test func formatAndVersionBitsMatchThePublishedTables() {
        #expect(QRGrid.formatBits(level: .medium, mask: 0) == 0b101_0100_0001_0010)
        #expect(QRGrid.formatBits(level: .low, mask: 4) == 0b110_0110_0010_1111)
        #expect(QRGrid.formatBits(level: .high, mask: 0) == 0b001_0110_1000_1001)
        #expect(QRGrid.versionBits(7) == 0x07C94)
    }

    @Test func byteModeCodewordsHoldModeCountDataAndPadding() {
        let codewords = QRCode.codewords(for: Array("AB".utf8), version: QRVersion(number: 1), level: .medium)
        #expect(codewords.count == 26)
        #expect(Array(codewords.prefix(16)) == hex("40 24 14 20 EC 11 EC 11 EC 11 EC 11 EC 11 EC 11"))
    }

    @Test func smallestVersionIsChosenAndOverflowIsAnError() throws {
        #expect(try QRCode(encoding: Array(repeating: 0x41, count: 14)).version == 1)
        #expect(try QRCode(encoding: Array(repeating: 0x41, count: 15)).version == 2)
        #expect(try QRCode(encoding: Array(repeating: 0x41, count: 213)).version == 10)
        #expect(throws: QRCode.TooLong(byteCount: 214, capacity: 213)) { try QRCode(encoding: Array(repeating: 0x41, count: 214)) }
    }

    @Test func finderPatternsAndTimingAreInPlace() throws {
        let symbol = try QRCode(encoding: Array("12345".utf8), mask: 3)
        #expect(symbol.size == 21)
        let topRow = (0..<8).map { symbol.isDark(row: 0, column: $0) }
        #expect(topRow == [true, true, true, true, true, true, true, false])
        #expect((8...12).map { symbol.isDark(row: 6, column: $0) } == [true, false, true, false, true])
        #expect(symbol.isDark(row: 13, column: 8))
    }
}
