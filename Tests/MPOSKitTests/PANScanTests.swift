import Foundation
import MPOSTestSupport
import SandboxCards
import Testing

/// The journal scan that every end-to-end test ends with must find a PAN when one is there,
/// in either form, or its empty result proves nothing.
@Suite(.timeLimit(.minutes(2)))
struct PANScanTests {
    @Test func theJournalScanFindsAPANAsDigitsAndAsBCD() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pan-scan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let card = try #require(SandboxCards.card(id: "visa-credit"))
        let digits = card.pan.unmaskedDigits
        #expect(try Sandbox.journalPANHits(in: directory).isEmpty)

        try Data([0x00, 0x5A, 0x08] + Sandbox.packedBCD(digits) + [0xFF]).write(
            to: directory.appendingPathComponent("journal.sqlite-wal"))
        try Data("row \(digits) end".utf8).write(to: directory.appendingPathComponent("journal.sqlite"))
        // Not a journal file: not the SDK's to answer for.
        try Data(digits.utf8).write(to: directory.appendingPathComponent("gateway.sqlite"))
        #expect(
            try Sandbox.journalPANHits(in: directory).sorted() == [
                "journal.sqlite-wal: visa-credit as BCD", "journal.sqlite: visa-credit as digits",
            ])
        #expect(Sandbox.packedBCD("123") == [0x12, 0x3F])
    }

    @Test func theByteSearchFindsEveryPlacementAndNothingElse() {
        let needle: [UInt8] = [7, 7, 8]
        #expect(ByteSearch.contains(needle, needle))
        #expect(ByteSearch.contains([7, 7, 7, 8], needle))  // after a false start on the same byte
        #expect(ByteSearch.contains([0, 0, 7, 7, 8], needle))  // at the very end
        #expect(ByteSearch.contains([7, 7, 8, 0], needle))  // at the very start
        #expect(!ByteSearch.contains([7, 7, 9, 7, 8], needle))
        #expect(!ByteSearch.contains([7, 7], needle))
        #expect(!ByteSearch.contains([1, 2, 3], []))
        var big = [UInt8](repeating: 0, count: 4_000_000)
        #expect(!ByteSearch.contains(big, needle))
        big.replaceSubrange(3_999_997..<4_000_000, with: needle)
        #expect(ByteSearch.contains(big, needle))
    }
}
