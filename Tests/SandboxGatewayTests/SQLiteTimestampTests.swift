import Foundation
import GRDB
import MPOSTestSupport
import Testing

@testable import SandboxGateway

/// ``SQLiteTimestamp`` must store exactly the text GRDB stores for a date, or dates written
/// by the authorization path would compare and sort differently from all the others.
@Suite(.timeLimit(.minutes(2))) struct SQLiteTimestampTests {
    static func grdbText(_ date: Date) -> String? { String.fromDatabaseValue(date.databaseValue) }

    @Test(arguments: [
        0.0, -0.001, -0.0005, 0.0009, 0.9999, 59.999_999, 951_782_400, 951_868_799.999, 4_107_542_400,
        4_107_628_799.5, 1_700_000_000.125, -2_208_988_800, 253_402_300_799.999,
    ])
    func matchesGRDBAtEdges(seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(SQLiteTimestamp.string(from: date) == Self.grdbText(date))
    }

    @Test func matchesGRDBOverManyDates() {
        let seed = SplitMix64.testSeed(environment: ProcessInfo.processInfo.environment)
        var generator = SplitMix64(seed: seed)
        var mismatches: [String] = []
        for _ in 0..<5_000 {
            // 1900 to 2300, with sub-millisecond fractions.
            let seconds = Double.random(in: -2_208_988_800...10_413_792_000, using: &generator)
            let date = Date(timeIntervalSince1970: seconds)
            let ours = SQLiteTimestamp.string(from: date)
            if ours != Self.grdbText(date) { mismatches.append("\(seconds): \(ours)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5)), seed \(seed) (MPOS_TEST_SEED replays it)")
    }

    @Test func readsBackAsTheSameMillisecond() throws {
        let date = Date(timeIntervalSince1970: 1_763_900_000.25)
        let read = Date.fromDatabaseValue(SQLiteTimestamp.string(from: date).databaseValue)
        #expect(read == date)
    }
}
