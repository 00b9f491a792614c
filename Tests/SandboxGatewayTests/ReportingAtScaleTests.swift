import Foundation
import GRDB
import GatewayAPI
import MPOSCore
import MPOSTestSupport
import Testing

@testable import SandboxGateway

/// A gateway database with a few thousand synthetic transactions over three months: the
/// million-row benchmark's data in small.
private struct SmallLedger {
    static let merchant = "m_main"
    /// 2026-01-01T00:00:00Z.
    static let start = Date(timeIntervalSince1970: 1_767_225_600)
    let directory: URL
    let store: GatewayStore
    let reporting: ReportingService

    init(count: Int = 3_000) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "reports-\(UUID().uuidString)")
        store = try GatewayStore(path: directory.appendingPathComponent("gateway.sqlite").path)
        var random = SplitMix64(seed: SplitMix64.testSeed(environment: ProcessInfo.processInfo.environment))
        let plan = SyntheticLedger.Plan(
            merchant: Self.merchant, otherMerchants: ["m_other1", "m_other2"], count: count,
            start: Self.start,
            duration: 90 * 86_400)
        _ = try store.sqliteWriter.write { db in try SyntheticLedger.fill(SQLiteSession(db), plan, using: &random) }
        reporting = ReportingService(database: store.database)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    /// Adds approved sales of `merchant` with the given ids and stored creation times.
    func insertSales(merchant: String, _ sales: [(id: String, time: String)]) async throws {
        try await store.sqliteWriter.write { db in
            for sale in sales {
                try db.execute(
                    sql: """
                        INSERT INTO payment_transaction (id, merchant_id, kind, status, amount_requested,
                          amount_major, currency, created_at, updated_at)
                        VALUES (?, ?, 'sale', 'approved', 100, 1, 'EUR', ?, ?)
                        """, arguments: [sale.id, merchant, sale.time, sale.time])
            }
        }
    }

    func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }
}

@Suite(.timeLimit(.minutes(2))) struct ReportingMatchesHandWrittenSQLTests {
    @Test func filteredSearchPagesAreTheHandWrittenQuerysRows() async throws {
        let ledger = try SmallLedger()
        defer { ledger.remove() }
        let from = ledger.date("2026-02-01T00:00:00Z")
        let to = ledger.date("2026-03-01T00:00:00Z")
        for page in [1, 20] {
            let search = try TransactionSearch(page: page, pageSize: 20, status: "approved")
            let served = try await ledger.reporting.search(
                merchant: SmallLedger.merchant, search, from: from, to: to)
            let expected = try await ledger.store.sqliteWriter.read { db in
                try ReportingReference.approvedPage(SQLiteSession(db), merchant: SmallLedger.merchant, from: from, to: to, limit: 20, offset: search.offset)
            }
            #expect(expected.total > 400)
            #expect(served.total == expected.total)
            #expect(served.transactions.map(\.id) == expected.ids)
            #expect(served.transactions.count == 20)
        }
    }

    @Test func oneTransactionIsTheHandWrittenQuerysRow() async throws {
        let ledger = try SmallLedger(count: 200)
        defer { ledger.remove() }
        let ids = try await ledger.store.sqliteWriter.read { db in
            try String.fetchAll(
                db, sql: "SELECT id FROM payment_transaction WHERE merchant_id = ?",
                arguments: [SmallLedger.merchant])
        }
        let id = try #require(ids.dropFirst(100).first)
        // A `Row` is not Sendable: the pool's blocking `read` returns it.
        let found = try ledger.store.sqliteWriter.read { db in
            try ReportingReference.transaction(SQLiteSession(db), merchant: SmallLedger.merchant, id: id)
        }
        let row = try #require(found)
        let record = try LedgerTransaction(row: row)
        let served = try await ledger.store.sqliteWriter.read { db in
            try PaymentService.fetchOriginal(SQLiteSession(db), merchant: SmallLedger.merchant, id: id)
        }
        #expect(served == record)
        let otherMerchants = try ledger.store.sqliteWriter.read { db in
            try ReportingReference.transaction(SQLiteSession(db), merchant: "m_other1", id: id)
        }
        #expect(otherMerchants == nil)
    }

    @Test func theTransactionsJSONBuiltInSQLIsTheAPIsBody() async throws {
        let ledger = try SmallLedger(count: 400)
        defer { ledger.remove() }
        let ids = try await ledger.store.sqliteWriter.read { db in
            try String.fetchAll(
                db, sql: "SELECT id FROM payment_transaction WHERE merchant_id = ? ORDER BY seq",
                arguments: [SmallLedger.merchant])
        }
        for id in ids.enumerated().filter({ $0.offset % 13 == 0 }).map(\.element) {
            let (record, json) = try await ledger.store.sqliteWriter.read { db in
                (
                    try PaymentService.fetchOriginal(SQLiteSession(db), merchant: SmallLedger.merchant, id: id),
                    try #require(try ReportingReference.transactionJSON(SQLiteSession(db), merchant: SmallLedger.merchant, id: id))
                )
            }
            let api = try JSONSerialization.jsonObject(with: GatewayJSON.encoder.encode(record.apiTransaction))
            // Nulls are left out of the API's body; json_object writes them.
            let fromSQL = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
            let present = fromSQL.filter { !($0.value is NSNull) }.mapValues { value -> Any in
                guard let nested = value as? [String: Any] else { return value }
                return nested.filter { !($0.value is NSNull) }
            }
            #expect(NSDictionary(dictionary: present) == api as! NSDictionary, "\(id): \(json)")
        }
        #expect(
            try await ledger.store.sqliteWriter.read { db in
                try ReportingReference.transactionJSON(SQLiteSession(db), merchant: "m_other1", id: ids[0])
            } == nil)
    }

    @Test(arguments: [(StatisticsPeriod.day, 10), (StatisticsPeriod.month, 7)], [true, false])
    func statisticsAreTheHandWrittenGroupBy(period: (StatisticsPeriod, Int), nested: Bool) async throws {
        let (period, labelLength) = period
        let ledger = try SmallLedger()
        defer { ledger.remove() }
        let from = ledger.date("2026-01-01T00:00:00Z")
        let to = ledger.date("2026-04-01T00:00:00Z")
        let served = try await ledger.reporting.statistics(
            merchant: SmallLedger.merchant, from: from, to: to, period: period, nestByStatus: nested,
            currency: "EUR")
        let expected = try await ledger.store.sqliteWriter.read { db in
            try ReportingReference.turnover(SQLiteSession(db), merchant: SmallLedger.merchant, currency: "EUR", from: from, to: to,
                labelLength: labelLength)
        }
        #expect(expected.count == (period == .day ? 90 : 3))
        #expect(
            served.map {
                ReportingReference.Figures(
                    label: $0.period, count: $0.figures.count, turnover: $0.figures.turnover,
                    minimum: $0.figures.minimum ?? 0, maximum: $0.figures.maximum ?? 0)
            } == expected)
        // The nested figures cover every status; the counting ones add up to the turnover.
        guard nested else {
            #expect(served.allSatisfy { $0.byStatus == nil })
            return
        }
        for group in served {
            let nested = try #require(group.byStatus)
            let counting = ["approved", "partiallyApproved", "refunded"].compactMap { nested[$0] }
            #expect(counting.map(\.turnover).reduce(0, +) == group.figures.turnover)
        }
        #expect(served.compactMap { $0.byStatus?["declined"]?.count }.reduce(0, +) > 50)
    }

    @Test func statisticsFoldedFromDaysEqualThoseAddedRowByRow() async throws {
        let ledger = try SmallLedger(count: 1_500)
        defer { ledger.remove() }
        let from = ledger.date("2026-01-03T00:00:00Z")
        let to = ledger.date("2026-03-20T00:00:00Z")
        let rows = try await ledger.store.sqliteWriter.read { db in
            try LedgerTransaction.fetchAll(
                db,
                sql: """
                    SELECT * FROM payment_transaction WHERE merchant_id = ? AND created_at >= ? AND created_at < ?
                      AND kind IN ('sale', 'capture', 'cash', 'sepa', 'refund')
                    """, arguments: [SmallLedger.merchant, from, to])
        }
        for period in StatisticsPeriod.allCases {
            var oneByOne = StatisticsAggregator(period: period, nestByStatus: true)
            for row in rows {
                let counts = [.approved, .partiallyApproved, .refunded].contains(row.status)
                let total =
                    counts || row.status == .reversed
                    ? row.amountCaptured + row.amountTip : row.amountRequested
                oneByOne.add(
                    amount: row.kind == .refund ? -total : total, currency: "EUR", status: row.status,
                    at: row.createdAt, counts: counts)
            }
            let served = try await ledger.reporting.statistics(
                merchant: SmallLedger.merchant, from: from, to: to, period: period, nestByStatus: true,
                currency: "EUR")
            #expect(served == oneByOne.result, "\(period)")
        }
    }
}

@Suite(.timeLimit(.minutes(2))) struct ReportingQueryPlanTests {
    private func plan(_ db: Database, _ sql: String, _ arguments: StatementArguments) throws -> String {
        try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments)
            .map { $0["detail"] as String? ?? "" }.joined(separator: "; ")
    }

    @Test func searchAndStatisticsReadTheTimeIndexWithoutScanningOrSorting() async throws {
        let ledger = try SmallLedger(count: 500)
        defer { ledger.remove() }
        let from = ledger.date("2026-02-01T00:00:00Z")
        let to = ledger.date("2026-03-01T00:00:00Z")
        try await ledger.store.sqliteWriter.read { db in
            let search = try TransactionSearch(page: 50, pageSize: 20, status: "approved")
            let statements = ReportingService.searchStatements(merchant: "m_main", search, from: from, to: to)
            var pageArguments = statements.arguments
            pageArguments += [20, search.offset]
            for (sql, arguments) in [
                (statements.count, statements.arguments), (statements.page, pageArguments),
            ] {
                let detail = try plan(db, sql, arguments)
                #expect(detail.contains("INDEX payment_transaction_merchant_time_covering"), "\(detail)")
                #expect(!detail.contains("SCAN") && !detail.contains("TEMP B-TREE"), "\(detail)")
            }
            for nested in [true, false] {
                let statistics = try plan(
                    db, StatisticsByDayQuery.sql(nestByStatus: nested), ["m_main", "EUR", from, to])
                #expect(
                    statistics.contains(
                        "SEARCH payment_transaction USING COVERING INDEX payment_transaction_merchant_time_covering"
                    ),
                    "\(statistics)")
            }
            let one = try plan(
                db, "SELECT * FROM payment_transaction WHERE id = ? AND merchant_id = ?", ["txn_1", "m_main"])
            #expect(one.contains("USING INDEX sqlite_autoindex_payment_transaction_1"), "\(one)")
        }
    }

    @Test func aDateTypedAsTextIsSearchedAsARangeOfTheTimeIndex() throws {
        let condition = try TransactionSearch(text: "2026-02-10").condition(merchant: "m_main")
        #expect(!condition.sql.contains("substr("))
        #expect(condition.sql.contains("(created_at >= ? AND created_at < ?)"))
    }
}

@Suite(.timeLimit(.minutes(2))) struct SearchDayBoundaryTests {
    @Test func aTypedDayHoldsItsFirstInstantAndNotTheNextDaysFirst() async throws {
        let ledger = try SmallLedger(count: 10)
        defer { ledger.remove() }
        let times = [
            "2026-02-09 23:59:59.999", "2026-02-10 00:00:00.000", "2026-02-10 23:59:59.999",
            "2026-02-11 00:00:00.000",
        ]
        try await ledger.insertSales(
            merchant: "m_day", times.enumerated().map { (id: "txn_day\($0.offset)", time: $0.element) })
        let page = try await ledger.reporting.search(
            merchant: "m_day", try TransactionSearch(order: "oldest", text: "2026-02-10"))
        #expect(page.transactions.map(\.id) == ["txn_day1", "txn_day2"])
        #expect(page.total == 2)
        #expect(TransactionSearch.utcDay("2026-02-30") == nil)
        #expect(TransactionSearch.utcDay("2026-2-10x") == nil)
    }

    @Test func aSearchRangeIncludesFromAndExcludesTo() async throws {
        let ledger = try SmallLedger(count: 10)
        defer { ledger.remove() }
        try await ledger.insertSales(
            merchant: "m_range",
            [
                (id: "txn_range0", time: "2026-05-01 00:00:00.000"),
                (id: "txn_range1", time: "2026-05-02 00:00:00.000"),
            ])
        let page = try await ledger.reporting.search(
            merchant: "m_range", try TransactionSearch(), from: ledger.date("2026-05-01T00:00:00Z"),
            to: ledger.date("2026-05-02T00:00:00Z"))
        #expect(page.transactions.map(\.id) == ["txn_range0"])
    }
}
