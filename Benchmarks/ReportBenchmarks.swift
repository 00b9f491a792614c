import Foundation
import GRDB
import GatewayAPI
import MPOSCore
import MPOSTestSupport
import SandboxGateway

/// Reports at a million payments, each through the gateway's reporting code (the service the
/// routes call, with the rows decoded and mapped into the API's types and encoded as JSON)
/// and through hand-written SQL for the same answer (``ReportingReference``), on the same
/// database in the same run, the answers checked equal first:
///
/// - `report.search.filtered`: approved transactions of one month, newest first, page 1 of 20;
///   `report.search.filtered.deep`: the same search's page 500.
/// - `report.transaction.one`: one transaction by id.
/// - `report.statistics.day_of_month`: statistics by day for one month.
/// - `report.statistics.month_two_years`: statistics by month for two years.
///
/// Each line: `p50` and `p95` in milliseconds (`value` is the p95), `raw_p50`, `raw_p95` and
/// `ratio` (p95 over raw p95). The database (1,000,000 rows over two years for one merchant,
/// one in fifty for six others) is filled once and kept under `.build-bench/`, or at
/// `MPOS_BENCH_REPORT_DB`; a file made with other migrations or another fill is not reused.
///
/// `report.pg.*` are the same figures on PostgreSQL: a throwaway server (``LocalPostgres``)
/// filled with the same rows in each run, analysed, and measured the same way.
enum ReportBenchmarks {
    static let sqliteNames = [
        "report.search.filtered", "report.search.filtered.deep", "report.transaction.one",
        "report.statistics.day_of_month", "report.statistics.month_two_years",
    ]
    static let postgresNames = sqliteNames.map { "report.pg." + $0.dropFirst("report.".count) }
    static let names = sqliteNames + postgresNames
    /// Bump when ``SyntheticLedger``'s rows change, so a cached file is refilled.
    static let fillVersion = 1
    static let rows = Int(ProcessInfo.processInfo.environment["MPOS_BENCH_REPORT_ROWS"] ?? "") ?? 1_000_000
    /// Timed runs of each way for a statistics figure; ten times as many for a search page
    /// and a hundred times for one transaction, which take a hundredth of the time.
    static let samples = Int(ProcessInfo.processInfo.environment["MPOS_BENCH_REPORT_SAMPLES"] ?? "") ?? 40
    static let merchant = "m_main"
    /// 2024-11-01T00:00:00Z: two years to 2026-11-01.
    static let start = Date(timeIntervalSince1970: 1_730_419_200)
    static let end = Date(timeIntervalSince1970: 1_793_491_200)
    /// October 2025, a month in the middle.
    static let month = (
        Date(timeIntervalSince1970: 1_759_276_800), Date(timeIntervalSince1970: 1_761_955_200)
    )

    /// Runs the benchmarks whose names start with `prefix`; `false` when none does.
    static func run(prefix: String) async throws -> Bool {
        // Not part of a run of everything: the first run fills a million rows.
        guard !prefix.isEmpty, names.contains(where: { $0.hasPrefix(prefix) }) else { return false }
        let onSQLite = sqliteNames.filter { $0.hasPrefix(prefix) }
        if !onSQLite.isEmpty {
            try await measure(onSQLite, on: try await openFilledLedger(), prefix: "report.")
        }
        let onPostgres = postgresNames.filter { $0.hasPrefix(prefix) }
        if !onPostgres.isEmpty {
            guard LocalPostgres.isInstalled else {
                throw BenchmarkInputMissing(name: "PostgreSQL (initdb, pg_ctl)", looked: ["/usr/lib/postgresql"])
            }
            // Reads only: commits need not reach the disk.
            let server = try LocalPostgres.start(durable: false)
            defer { server.stop() }
            let store = try await filledPostgresLedger(on: server)
            do {
                try await measure(onPostgres, on: store, prefix: "report.pg.")
            } catch {
                try? await store.database.close()
                throw error
            }
            try await store.database.close()
        }
        return true
    }

    /// Measures `selected` (names starting with `prefix`) on `store`'s ledger.
    static func measure(_ selected: [String], on store: GatewayStore, prefix: String) async throws {
        let reporting = ReportingService(database: store.database)
        try await reporting.applyDailyChanges()
        let payments = PaymentService(
            database: store.database, writer: store.groupCommitWriter, issuer: UnusedIssuer(),
            fingerprinter: CardFingerprinter(secret: Array(repeating: 1, count: 32)))
        let encoder = JSONEncoder()
        let (monthStart, monthEnd) = month

        for name in selected {
            switch "report." + name.dropFirst(prefix.count) {
            case "report.search.filtered", "report.search.filtered.deep":
                let search = try TransactionSearch(
                    page: name.hasSuffix("deep") ? 500 : 1, pageSize: 20, status: "approved")
                try await compare(
                    name,
                    served: {
                        let page = try await reporting.search(
                            merchant: merchant, search, from: monthStart, to: monthEnd)
                        let body = try encoder.encode(
                            TransactionPage(
                                items: page.transactions.map(\.apiTransaction), page: search.page,
                                pageSize: search.pageSize, totalCount: page.total))
                        return "\(page.total) " + page.transactions.map(\.id).joined(separator: ",")
                            + "\(body.count > 0)"
                    },
                    raw: {
                        let answer = try await store.database.read { db in
                            try ReportingReference.approvedPage(
                                db, merchant: merchant, from: monthStart, to: monthEnd, limit: 20,
                                offset: search.offset)
                        }
                        return "\(answer.total) " + answer.ids.joined(separator: ",") + "true"
                    })
            case "report.transaction.one":
                let ids = try await store.database.read { db in
                    try db.fetchValues(
                        String.self,
                        sql: "SELECT id FROM payment_transaction WHERE merchant_id = ? AND seq % 4999 = 0",
                        arguments: [merchant])
                }
                var next = 0
                var nextRaw = 0
                try await compare(
                    name,
                    served: {
                        next += 1
                        let record = try await payments.transaction(
                            merchant: merchant, id: ids[next % ids.count])
                        _ = try encoder.encode(record.apiTransaction)
                        return record.id
                    },
                    raw: {
                        // The same JSON body, built by hand-written SQL (json_object).
                        nextRaw += 1
                        let id = ids[nextRaw % ids.count]
                        let json = try await store.database.read { db in
                            try ReportingReference.transactionJSON(db, merchant: merchant, id: id)
                        }
                        return json == nil ? "" : id
                    })
            default:
                let byDay = name.hasSuffix("day_of_month")
                let (from, to) = byDay ? month : (start, end)
                try await compare(
                    name,
                    served: {
                        let groups = try await reporting.statistics(
                            merchant: merchant, from: from, to: to, period: byDay ? .day : .month,
                            nestByStatus: false, currency: "EUR")
                        let buckets = groups.map {
                            StatisticsBucket(
                                periodStart: $0.periodStart, label: $0.period, count: $0.figures.count,
                                turnover: $0.figures.turnover, minimum: $0.figures.minimum,
                                maximum: $0.figures.maximum, average: $0.figures.average)
                        }
                        _ = try encoder.encode(
                            StatisticsResponse(
                                currency: .eur, grouping: byDay ? .day : .month, buckets: buckets))
                        return buckets.map {
                            "\($0.label) \($0.count) \($0.turnover) \($0.minimum ?? 0) \($0.maximum ?? 0)"
                        }
                        .joined(separator: ";")
                    },
                    raw: {
                        // Hand-written over the figures the database keeps per day, as the
                        // service reads them; the ranges are whole UTC days.
                        try await store.database.read { db in
                            try ReportingReference.turnoverFromDailyTotals(
                                db, merchant: merchant, currency: "EUR",
                                fromDay: utcDay(from), toDay: utcDay(to),
                                labelLength: byDay ? 10 : 7)
                        }.map { "\($0.label) \($0.count) \($0.turnover) \($0.minimum) \($0.maximum)" }
                            .joined(separator: ";")
                    },
                    reference: {
                        // The same answer from every row, once, so the kept figures are checked too.
                        try await store.database.read { db in
                            try ReportingReference.turnover(
                                db, merchant: merchant, currency: "EUR", from: from, to: to,
                                labelLength: byDay ? 10 : 7)
                        }.map { "\($0.label) \($0.count) \($0.turnover) \($0.minimum) \($0.maximum)" }
                            .joined(separator: ";")
                    })
            }
        }
    }

    /// `yyyy-MM-dd` of `date` in UTC.
    static func utcDay(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: date)
    }

    /// Checks that both ways give the same answer, then times them alternately (after three
    /// warm-ups) and prints the line.
    static func compare(
        _ name: String, served: () async throws -> String, raw: () async throws -> String,
        reference: (() async throws -> String)? = nil
    ) async throws {
        let samples =
            name.contains(".transaction.")
            ? samples * 100 : name.contains(".search.") ? samples * 10 : samples
        let (servedAnswer, rawAnswer) = (try await served(), try await raw())
        guard servedAnswer == rawAnswer, !rawAnswer.isEmpty else {
            throw ReportMismatch(
                name: name, served: String(servedAnswer.prefix(300)), raw: String(rawAnswer.prefix(300)))
        }
        if let reference {
            let fromRows = try await reference()
            guard fromRows == servedAnswer else {
                throw ReportMismatch(
                    name: name + " (rows)", served: String(servedAnswer.prefix(300)), raw: String(fromRows.prefix(300)))
            }
        }
        for _ in 0..<2 {
            _ = try await served()
            _ = try await raw()
        }
        var servedTimes: [Double] = []
        var rawTimes: [Double] = []
        for _ in 0..<samples {
            var started = monotonicNanoseconds()
            _ = try await served()
            servedTimes.append(Double(monotonicNanoseconds() - started) / 1e6)
            started = monotonicNanoseconds()
            _ = try await raw()
            rawTimes.append(Double(monotonicNanoseconds() - started) / 1e6)
        }
        servedTimes.sort()
        rawTimes.sort()
        let p95 = percentile(servedTimes, 0.95)
        let rawP95 = percentile(rawTimes, 0.95)
        emit(
            name: name, unit: "ms", value: p95,
            extra: [
                "p50": percentile(servedTimes, 0.5), "p95": p95, "raw_p50": percentile(rawTimes, 0.5),
                "raw_p95": rawP95, "ratio": p95 / rawP95, "rows": Double(rows),
            ], count: samples)
    }

    /// The same ledger as ``openFilledLedger()`` on a new database of `server`: filled in one
    /// transaction by multi-row inserts, its day figures folded, and analysed.
    static func filledPostgresLedger(on server: LocalPostgres) async throws -> GatewayStore {
        let url = try PostgresURL(server.createDatabase("report"), environment: [:])
        let database = try await PostgresGatewayDatabase(url: url)
        let started = monotonicNanoseconds()
        do {
            _ = try await database.write { db in
                var random = SplitMix64(seed: 35)
                return try SyntheticLedger.fill(db, fillPlan, using: &random)
            }
            _ = try await ReportingService(database: database).applyDailyChanges()
            try await database.write { db in try db.execute(sql: "ANALYZE") }
        } catch {
            try? await database.close()
            throw error
        }
        printError(
            "report.pg.: filled \(rows) transactions into PostgreSQL in \(Int(Double(monotonicNanoseconds() - started) / 1e9)) s"
        )
        return GatewayStore(database: database)
    }

    /// The rows both engines are filled with.
    static var fillPlan: SyntheticLedger.Plan {
        SyntheticLedger.Plan(
            merchant: merchant, otherMerchants: (1...6).map { "m_other\($0)" }, count: rows, start: start,
            duration: end.timeIntervalSince(start) - 1)
    }

    /// The cached ledger, or a new one filled (into a temporary name, renamed when complete).
    static func openFilledLedger() async throws -> GatewayStore {
        let migrations = GatewayMigrations.all
        let key = "v\(fillVersion)-\(rows)-m\(migrations.count)-\(migrations.last?.name ?? "")"
        let path =
            ProcessInfo.processInfo.environment["MPOS_BENCH_REPORT_DB"]
            ?? FileManager.default.currentDirectoryPath + "/.build-bench/report-ledger-\(key).sqlite"
        if FileManager.default.fileExists(atPath: path) { return try GatewayStore(path: path) }
        let filling = path + ".filling"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: filling + suffix) }
        let started = monotonicNanoseconds()
        do {
            let store = try GatewayStore(path: filling)
            _ = try await store.database.write { db in
                var random = SplitMix64(seed: 35)
                return try SyntheticLedger.fill(db, fillPlan, using: &random)
            }
            if let pool = store.sqlitePool {
                try await pool.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
                }
            }
        }
        try FileManager.default.moveItem(atPath: filling, toPath: path)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: filling + suffix) }
        printError(
            "report.: filled \(rows) transactions into \(path) in \(Int(Double(monotonicNanoseconds() - started) / 1e9)) s"
        )
        return try GatewayStore(path: path)
    }
}

/// The service and the hand-written SQL disagreed: the figures would compare different work.
struct ReportMismatch: Error, CustomStringConvertible {
    let name: String
    let served: String
    let raw: String
    var description: String { "\(name): the service answered \(served), the SQL \(raw)" }
}

/// The reports never authorise; an issuer that is asked anyway says so.
struct UnusedIssuer: PaymentIssuer {
    func verify(_ request: IssuerRequest, allowPartial: Bool, now: Date) throws(PaymentRuleViolation)
        -> IssuerVerification
    {
        throw PaymentRuleViolation(.cardDataRejected, "The report benchmarks do not authorise payments.")
    }
}
