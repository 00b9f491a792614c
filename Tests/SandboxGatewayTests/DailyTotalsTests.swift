import Foundation
import GRDB
import MPOSTestSupport
import SandboxGateway
import Testing

@testable import SandboxGateway

/// The per-day statistics figures the database keeps (`payment_daily_total`) equal what adding
/// up the ledger's rows gives, after inserts, status and amount changes (refunds, voids,
/// captures, tips) and deletes, including the extremes a change takes away.
@Suite(.timeLimit(.minutes(2))) struct DailyTotalsTests {
    /// The figures from the rows, keyed like the table.
    static let fromRows = """
        SELECT merchant_id, currency, substr(created_at, 1, 10) AS day, status,
          COUNT(*) AS n, SUM(a) AS total, MIN(a) AS low, MAX(a) AS high
        FROM (SELECT *, \(DailyTotals.amount("payment_transaction")) AS a FROM payment_transaction
              WHERE kind IN (\(StatisticsByDayQuery.kinds)))
        GROUP BY merchant_id, currency, day, status ORDER BY merchant_id, currency, day, status
        """
    static let kept = """
        SELECT merchant_id, currency, day, status, n, total, low, high FROM payment_daily_total
        ORDER BY merchant_id, currency, day, status
        """

    /// Folds the appended changes in, then compares the kept figures with the rows'.
    static func expectAgreement(_ db: Database, _ step: String) throws {
        try DailyTotalChanges.apply(SQLiteSession(db))
        #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM payment_daily_change") == 0)
        let rows = try Row.fetchAll(db, sql: fromRows)
        let kept = try Row.fetchAll(db, sql: Self.kept)
        #expect(rows == kept, "after \(step): \(rows.count) groups from rows, \(kept.count) kept")
    }

    @Test func theKeptFiguresFollowEveryChangeOfTheLedger() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("totals-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try GatewayStore(path: directory.appendingPathComponent("gateway.sqlite").path)
        var random = SplitMix64(seed: SplitMix64.testSeed(environment: ProcessInfo.processInfo.environment))
        let plan = SyntheticLedger.Plan(
            merchant: "m_main", otherMerchants: ["m_other"], count: 2_000,
            start: Date(timeIntervalSince1970: 1_767_225_600), duration: 10 * 86_400)
        try store.sqliteWriter.write { db in
            _ = try SyntheticLedger.fill(SQLiteSession(db), plan, using: &random)
            try Self.expectAgreement(db, "the fill")
            let ids = try String.fetchAll(db, sql: "SELECT id FROM payment_transaction ORDER BY seq")
            let statuses = ["approved", "declined", "reversed", "refunded", "partiallyApproved"]
            for round in 0..<300 {
                let id = ids[Int(random.next() % UInt64(ids.count))]
                switch round % 4 {
                case 0:
                    // A status change: a void, a refund in full, a decline recorded late.
                    try db.execute(
                        sql: "UPDATE payment_transaction SET status = ? WHERE id = ?",
                        arguments: [statuses[Int(random.next() % UInt64(statuses.count))], id])
                case 1:
                    // A capture or partial refund: the amounts move, the status may stay.
                    try db.execute(
                        sql: "UPDATE payment_transaction SET amount_captured = ? WHERE id = ?",
                        arguments: [Int64(random.next() % 50_000), id])
                case 2:
                    // A tip: often the day's largest amount becomes another.
                    try db.execute(
                        sql: "UPDATE payment_transaction SET amount_tip = ? WHERE id = ?",
                        arguments: [Int64(random.next() % 200_000), id])
                default:
                    try db.execute(sql: "DELETE FROM payment_transaction WHERE id = ?", arguments: [id])
                }
            }
            try Self.expectAgreement(db, "300 changes")
            // Every row of a day gone: its figures go too.
            try db.execute(sql: "DELETE FROM payment_transaction WHERE substr(created_at, 1, 10) = '2026-01-03'")
            try Self.expectAgreement(db, "a day deleted")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM payment_daily_total WHERE day = '2026-01-03'") == 0)

            // A range that starts and ends mid-day: whole days from the table, the ends from
            // the rows, the same figures as from the rows alone, for every period.
            let from = plan.start.addingTimeInterval(86_400 + 3_723)
            let to = plan.start.addingTimeInterval(8 * 86_400 + 41_000)
            for period in StatisticsPeriod.allCases {
                for nested in [false, true] {
                    var mixed = StatisticsAggregator(period: period, nestByStatus: nested)
                    try StatisticsByDayQuery.fold(SQLiteSession(db), into: &mixed, merchant: "m_main", currency: "EUR", from: from, to: to)
                    var rowsOnly = StatisticsAggregator(period: period, nestByStatus: nested)
                    try StatisticsByDayQuery.foldRows(SQLiteSession(db), into: &rowsOnly, merchant: "m_main", currency: "EUR", from: from, to: to)
                    #expect(mixed.result == rowsOnly.result, "\(period) nested \(nested)")
                    #expect(!mixed.result.isEmpty)
                }
            }
        }
    }

    @Test func wholeDaysComeFromTheKeptFiguresAndPartDaysFromTheRows() {
        let day: TimeInterval = 86_400
        let midnight = Date(timeIntervalSince1970: 1_767_225_600)
        let whole = StatisticsByDayQuery.wholeDays(from: midnight, to: midnight.addingTimeInterval(3 * day))
        #expect(whole?.start == midnight && whole?.end == midnight.addingTimeInterval(3 * day))
        let ragged = StatisticsByDayQuery.wholeDays(
            from: midnight.addingTimeInterval(3_600), to: midnight.addingTimeInterval(2 * day + 60))
        #expect(ragged?.start == midnight.addingTimeInterval(day))
        #expect(ragged?.end == midnight.addingTimeInterval(2 * day))
        #expect(StatisticsByDayQuery.wholeDays(from: midnight.addingTimeInterval(60), to: midnight.addingTimeInterval(day)) == nil)
        #expect(StatisticsByDayQuery.dayLabel(midnight) == "2026-01-01")
    }
}
