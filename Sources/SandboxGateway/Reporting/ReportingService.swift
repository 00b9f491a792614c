import Foundation
import GRDB
import MPOSCore

/// Reporting over the ledger: transaction search, receipt data, statistics and the inventory
/// file. Reads run on the pool's readers, concurrently with payments.
public struct ReportingService: Sendable {
    /// The ledger database.
    public let database: any DatabaseWriter
    /// The current time.
    public let now: @Sendable () -> Date

    /// Creates the service.
    public init(database: any DatabaseWriter, now: @escaping @Sendable () -> Date = { Date() }) {
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

    /// Runs a search for `merchant`.
    public func search(merchant: String, _ search: TransactionSearch) async throws -> Page {
        let (condition, arguments) = search.condition(merchant: merchant)
        return try await database.read { db in
            let total = try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM payment_transaction WHERE \(condition)", arguments: arguments) ?? 0
            var pageArguments = arguments
            pageArguments += [search.pageSize, search.offset]
            let rows = try LedgerTransaction.fetchAll(
                db,
                sql: "SELECT * FROM payment_transaction WHERE \(condition) ORDER BY \(search.orderBy) LIMIT ? OFFSET ?",
                arguments: pageArguments)
            return Page(transactions: rows, total: total)
        }
    }

    /// Statistics over `[from, to]` (inclusive, UTC), grouped by `period`, optionally nested by
    /// status. Payments count (sales, captures of authorisations, cash, SEPA, refunds);
    /// voids, tip adjustments and uncaptured authorisations do not.
    public func statistics(merchant: String, from: Date, to: Date, period: StatisticsPeriod, nestByStatus: Bool)
        async throws -> [StatisticsGroup]
    {
        guard from <= to else { throw PaymentRuleViolation(.invalidField, "from must not be after to.") }
        return try await database.read { db in
            var aggregator = StatisticsAggregator(period: period, nestByStatus: nestByStatus)
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT amount_requested, amount_approved, currency, status, created_at FROM payment_transaction
                    WHERE merchant_id = ? AND created_at >= ? AND created_at <= ?
                      AND kind IN ('sale', 'authorization', 'preAuthorization', 'refund', 'cash', 'sepa')
                    """, arguments: [merchant, from, to])
            while let row = try rows.next() {
                let approved: Int64 = row["amount_approved"]
                let requested: Int64 = row["amount_requested"]
                aggregator.add(
                    amount: approved > 0 ? approved : requested, currency: row["currency"],
                    status: FinancialStatus(rawValue: row["status"]) ?? .failed, at: row["created_at"])
            }
            return aggregator.result
        }
    }

    /// Stores a new inventory version for the merchant and returns it (without content).
    public func uploadInventory(merchant: String, content: [UInt8]) async throws -> LedgerInventory {
        let summary = try InventoryCSV.validate(content)
        let time = now()
        return try await database.write { db in
            let current = try Int.fetchOne(
                db, sql: "SELECT MAX(version) FROM payment_inventory WHERE merchant_id = ?", arguments: [merchant]) ?? 0
            let record = LedgerInventory(
                merchantId: merchant, version: current + 1, content: Data(content),
                columns: summary.columns.joined(separator: ","), rowCount: summary.rowCount, uploadedAt: time)
            try record.insert(db)
            return record
        }
    }

    /// The merchant's latest inventory, or a given version.
    public func inventory(merchant: String, version: Int? = nil) async throws -> LedgerInventory {
        try await database.read { db in
            let request =
                version.map {
                    LedgerInventory.filter(Column("merchant_id") == merchant && Column("version") == $0)
                } ?? LedgerInventory.filter(Column("merchant_id") == merchant).order(Column("version").desc)
            guard let record = try request.fetchOne(db) else {
                throw PaymentRuleViolation(.notFound, "No inventory has been uploaded.")
            }
            return record
        }
    }
}
