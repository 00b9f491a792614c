import Foundation
import MPOSCore
import Testing

struct IdempotencyKeyTests {
    @Test func generatesRandomVersion4UUIDs() {
        let key = IdempotencyKey()
        let parts = key.rawValue.split(separator: "-", omittingEmptySubsequences: false)
        #expect(parts.map(\.count) == [8, 4, 4, 4, 12])
        #expect(parts[2].first == "4")
        #expect(["8", "9", "a", "b"].contains(parts[3].first))
        #expect(key.rawValue.allSatisfy { "0123456789abcdef-".contains($0) })
        #expect(IdempotencyKey(rawValue: key.rawValue) == key)
        #expect(Set((0..<100).map { _ in IdempotencyKey() }).count == 100)
    }

    /// Two fixed 64-bit draws, for a key whose every digit is known.
    struct TwoWords: RandomNumberGenerator {
        var words: [UInt64] = [0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210]
        mutating func next() -> UInt64 { words.removeFirst() }
    }

    @Test func theBytesAreTwoLittleEndianDrawsWithVersionAndVariantSet() {
        var generator = TwoWords()
        // Bytes ef cd ab 89 67 45 23 01 10 32 54 76 98 ba dc fe; 0x23 gets version 4 (0x43),
        // 0x10 the variant bits (0x90).
        #expect(IdempotencyKey(using: &generator).rawValue == "efcdab89-6745-4301-9032-547698badcfe")
        #expect(generator.words.isEmpty)
    }

    @Test func acceptsOneToSixtyFourSafeCharacters() throws {
        #expect(IdempotencyKey(rawValue: "a")?.rawValue == "a")
        #expect(IdempotencyKey(rawValue: "Order_42-retry") != nil)
        #expect(IdempotencyKey(rawValue: String(repeating: "x", count: 64)) != nil)
        #expect(try IdempotencyKey(validating: "ABC-123").description == "ABC-123")
    }

    @Test(arguments: ["", String(repeating: "x", count: 65), "has space", "dot.", "slash/", "é", "a\n", "ä"])
    func rejectsMalformedKeys(text: String) {
        #expect(IdempotencyKey(rawValue: text) == nil)
        #expect(throws: MPOSError.invalidIdentifier) { try IdempotencyKey(validating: text) }
    }

    @Test func codesAsAValidatedString() throws {
        let key = IdempotencyKey(rawValue: "k-1")!
        #expect(String(decoding: try JSONEncoder().encode(key), as: UTF8.self) == #""k-1""#)
        #expect(try JSONDecoder().decode(IdempotencyKey.self, from: Data(#""k-1""#.utf8)) == key)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(IdempotencyKey.self, from: Data(#""k 1""#.utf8))
        }
    }
}
