import Foundation
import GRDB
import MPOSCore

/// Reporting over the ledger: transaction search, receipt data, statistics and the inventory
/// file. Reads run on the database's readers, concurrently with payments.
public struct ReportingService: Sendable {
    /// The ledger database.
    public let database: any GatewayDatabase
    /// The current time.
    public let now: @Sendable () -> Date

    /// Creates the service.
    public init(database: any GatewayDatabase, now: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.now = now
    }

    /// One page of search results.
    public struct Page: Sendable {
        /// The rows on this page.
        public var transactions: [LedgerTransaction]
        /// Matching rows in all.
        public var total: Int
    }

    /// Runs a search for `merchant`, optionally within `[from, to)`: created at or after `from`
    /// and before `to`, as ``TransactionSearchRequest`` says, so that consecutive ranges never
    /// both hold a transaction created at the instant one ends and the next begins.
    public func search(merchant: String, _ search: TransactionSearch, from: Date? = nil, to: Date? = nil)
        async throws
        -> Page
    {
        let statements = Self.searchStatements(merchant: merchant, search, from: from, to: to)
        return try await database.read { db in
            let total = try db.fetchValue(Int.self, sql: statements.count, arguments: statements.arguments) ?? 0
            var pageArguments = statements.arguments
            pageArguments += [search.pageSize, search.offset]
            let rows = try db.fetchAll(LedgerTransaction.self, sql: statements.page, arguments: pageArguments)
            return Page(transactions: rows, total: total)
        }
    }

    /// The search's two statements: the count of matches, and the page (whose last two
    /// arguments, limit and offset, follow `arguments`).
    static func searchStatements(merchant: String, _ search: TransactionSearch, from: Date?, to: Date?)
        -> (count: String, page: String, arguments: StatementArguments)
    {
        var (condition, arguments) = search.condition(merchant: merchant)
        if let from {
            condition += " AND created_at >= ?"
            arguments += [from]
        }
        if let to {
            condition += " AND created_at < ?"
            arguments += [to]
        }
        return (
            "SELECT COUNT(*) FROM payment_transaction WHERE \(condition)",
            "SELECT * FROM payment_transaction WHERE \(condition) ORDER BY \(search.orderBy) LIMIT ? OFFSET ?",
            arguments
        )
    }

    /// Folds the changes the ledger appended since the last time into the daily figures
    /// (`payment_daily_total`), so that they are exact as of now; statistics do so first.
    ///
    /// - Returns: how many changes were folded.
    @discardableResult
    public func applyDailyChanges() async throws -> Int {
        try await database.write { db in try DailyTotalChanges.apply(db) }
    }

    /// Statistics over `[from, to)` (`to` excluded, as ``StatisticsRequest`` says, so that a
    /// day's range ends where the next begins; UTC) in one currency, grouped by `period`,
    /// optionally nested by status. Turnover counts approved sales, captures, cash and SEPA
    /// payments (tips included) minus refunds; min, max and average are over those
    /// transactions' signed totals. Nested figures cover every status, declines included.
    public func statistics(
        merchant: String, from: Date, to: Date, period: StatisticsPeriod, nestByStatus: Bool, currency: String
    ) async throws -> [StatisticsGroup] {
        guard from <= to else { throw PaymentRuleViolation(.invalidField, "from must not be after to.") }
        try await applyDailyChanges()
        return try await database.read { db in
            var aggregator = StatisticsAggregator(period: period, nestByStatus: nestByStatus)
            try StatisticsByDayQuery.fold(
                db, into: &aggregator, merchant: merchant, currency: currency, from: from, to: to)
            return aggregator.result
        }
    }

    /// Stores inventory version `version` for the merchant; it must be greater than the
    /// current one.
    public func uploadInventory(merchant: String, version: Int, content: [UInt8]) async throws
        -> LedgerInventory
    {
        let summary = try InventoryCSV.validate(content)
        let time = now()
        let sha256 = InventoryCSV.sha256Hex(content)
        return try await database.write { db in
            let current =
                try db.fetchValue(Int.self, sql: "SELECT MAX(version) AS version FROM payment_inventory WHERE merchant_id = ?",
                    arguments: [merchant]) ?? 0
            guard version > current else {
                throw PaymentRuleViolation(
                    .conflict, "version must be greater than the current version \(current).")
            }
            let record = LedgerInventory(
                merchantId: merchant, version: version, content: Data(content), sha256: sha256,
                columns: summary.columns.joined(separator: ","), rowCount: summary.rowCount, uploadedAt: time)
            try db.insert(record)
            return record
        }
    }

    /// The merchant's latest inventory, or a given version.
    public func inventory(merchant: String, version: Int? = nil) async throws -> LedgerInventory {
        try await database.read { db in
            let found =
                try version.map {
                    try db.fetchOne(
                        LedgerInventory.self, sql: "SELECT * FROM payment_inventory WHERE merchant_id = ? AND version = ?",
                        arguments: [merchant, $0])
                }
                ?? db.fetchOne(
                    LedgerInventory.self,
                    sql: "SELECT * FROM payment_inventory WHERE merchant_id = ? ORDER BY version DESC LIMIT 1",
                    arguments: [merchant])
            guard let record = found else {
                throw PaymentRuleViolation(.notFound, "No inventory has been uploaded.")
            }
            return record
        }
    }
}
