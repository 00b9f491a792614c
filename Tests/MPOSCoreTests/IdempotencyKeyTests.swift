import Foundation
import MPOSCore
import MPOSTestSupport
import Testing

@Suite(.timeLimit(.minutes(2)))
struct IdempotencyKeyTests {
    @Test func generatesVersion7UUIDs() {
        let key = IdempotencyKey()
        let parts = key.rawValue.split(separator: "-", omittingEmptySubsequences: false)
        #expect(parts.map(\.count) == [8, 4, 4, 4, 12])
        #expect(parts[2].first == "7")
        #expect(["8", "9", "a", "b"].contains(parts[3].first))
        #expect(key.rawValue.allSatisfy { "0123456789abcdef-".contains($0) })
        #expect(IdempotencyKey(rawValue: key.rawValue) == key)
        #expect(Set((0..<100).map { _ in IdempotencyKey() }).count == 100)
    }

    @Test func keysMadeLaterSortLater() {
        let seed = SplitMix64.testSeed(environment: ProcessInfo.processInfo.environment)
        var generator = SplitMix64(seed: seed)
        let start = Date(timeIntervalSince1970: 1_764_000_000)
        let keys = (0..<50).map { step in
            IdempotencyKey(using: &generator, at: start.addingTimeInterval(Double(step) * 0.01)).rawValue
        }
        #expect(keys == keys.sorted(), "seed \(seed) (MPOS_TEST_SEED replays it)")
        #expect(Set(keys).count == keys.count, "seed \(seed)")
        // The same millisecond: the random bits still set them apart.
        let sameTime = (0..<50).map { _ in IdempotencyKey(using: &generator, at: start).rawValue }
        #expect(Set(sameTime).count == sameTime.count, "seed \(seed)")
        #expect(sameTime.allSatisfy { $0.hasPrefix("019ab697-e800-7") })
    }

    /// Two fixed 64-bit draws, for a key whose every digit is known.
    struct TwoWords: RandomNumberGenerator {
        var words: [UInt64] = [0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210]
        mutating func next() -> UInt64 { words.removeFirst() }
    }

    @Test func theBytesAreTheTimeThenTwoLittleEndianDrawsWithVersionAndVariantSet() {
        var generator = TwoWords()
        // 1,764,000,000,123 ms is 0x019ab697e87b. The draws give ef cd ab 89 67 45 23 01 10 32
        // (the rest is dropped); 0xef gets version 7 (0x7f), 0xab the variant bits (0xab).
        let time = Date(timeIntervalSince1970: 1_764_000_000.123_4)
        #expect(IdempotencyKey(using: &generator, at: time).rawValue == "019ab697-e87b-7fcd-ab89-674523011032")
        #expect(generator.words.isEmpty)
    }

    @Test func aTimeBefore1970CountsAsZero() {
        var generator = TwoWords()
        let key = IdempotencyKey(using: &generator, at: Date(timeIntervalSince1970: -5))
        #expect(key.rawValue == "00000000-0000-7fcd-ab89-674523011032")
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
