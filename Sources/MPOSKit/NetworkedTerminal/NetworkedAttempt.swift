import Foundation
import GRDB
import MPOSCore

/// One request made to a networked terminal, as the journal keeps it: written (and synced)
/// before the request leaves, so that an answer lost on the way is settled afterwards with
/// a TransactionStatus request for its `SaleID` and `ServiceID`. Kept in a table of its own:
/// the terminal's own acquirer holds these payments, so gateway recovery never asks about them.
struct NetworkedAttempt: Sendable, Hashable {
    /// What was asked of the terminal. The raw value is what the journal stores.
    enum Operation: String, Sendable, Hashable {
        /// A `PaymentRequest`, `PaymentType` Normal.
        case sale
        /// A `PaymentRequest`, `PaymentType` Refund.
        case refundUnreferenced
        /// A `ReversalRequest` (a void, or a refund of part or all of a payment).
        case reversal
    }

    /// Where the attempt stands.
    enum State: String, Sendable, Hashable {
        /// The request may have left: its outcome is known only to the terminal.
        case sent
        /// The outcome is known (or, for a payment, the terminal said it never happened).
        case finished
    }

    /// `nexo-` and the SHA-256 of SaleID and ServiceID (as `perform(terminalAPIRequest:)` keys them).
    var key: IdempotencyKey
    var saleID: String
    var serviceID: String
    var poiID: String
    var operation: Operation
    var amount: Int64?
    var currency: Currency
    /// The payment a reversal acts on.
    var originalTransactionID: TransactionID?
    var state: State
    var outcome: PaymentStatus?
    /// The terminal's `POITransactionID`, once known.
    var transactionID: TransactionID?
    /// First 6 / last 4 at most, as the terminal sent it.
    var maskedPAN: String?
    var createdAt: Date
    var updatedAt: Date

    static let tableName = "networkedAttempt"

    /// The columns in the order of ``upsertSQL``'s arguments.
    private static let columnNames = [
        "key", "saleID", "serviceID", "poiID", "operation", "amount", "currency", "originalTransactionID",
        "state",
        "outcome", "transactionID", "maskedPAN", "createdAt", "updatedAt",
    ]

    /// Inserts the attempt, or replaces every column but its key.
    static let upsertSQL = JournalEntry.upsertSQL(table: tableName, columns: columnNames)

    /// The arguments of ``upsertSQL``.
    var upsertArguments: StatementArguments {
        let values: [(any DatabaseValueConvertible)?] = [
            key.rawValue, saleID, serviceID, poiID, operation.rawValue, amount, currency.code,
            originalTransactionID?.rawValue, state.rawValue, outcome?.rawValue, transactionID?.rawValue,
            maskedPAN,
            JournalEntry.storedDate(createdAt), JournalEntry.storedDate(updatedAt),
        ]
        return StatementArguments(values)
    }

    /// Reads a row; a value that does not parse is an error, never guessed at.
    init(row: Row) throws {
        key = try JournalEntry.parse(row, "key", IdempotencyKey.init(rawValue:))
        saleID = try row.decode(String.self, forColumn: "saleID")
        serviceID = try row.decode(String.self, forColumn: "serviceID")
        poiID = try row.decode(String.self, forColumn: "poiID")
        operation = try JournalEntry.parse(row, "operation", Operation.init(rawValue:))
        amount = try row.decode(Int64?.self, forColumn: "amount")
        currency = try JournalEntry.parse(row, "currency") { Currency(code: $0) }
        originalTransactionID = try JournalEntry.parseIfPresent(
            row, "originalTransactionID", TransactionID.init(rawValue:))
        state = try JournalEntry.parse(row, "state", State.init(rawValue:))
        outcome = try JournalEntry.parseIfPresent(row, "outcome", PaymentStatus.init(rawValue:))
        transactionID = try JournalEntry.parseIfPresent(row, "transactionID", TransactionID.init(rawValue:))
        maskedPAN = try row.decode(String?.self, forColumn: "maskedPAN")
        createdAt = try row.decode(Date.self, forColumn: "createdAt")
        updatedAt = try row.decode(Date.self, forColumn: "updatedAt")
    }

    init(
        key: IdempotencyKey, saleID: String, serviceID: String, poiID: String, operation: Operation,
        amount: Int64?,
        currency: Currency, originalTransactionID: TransactionID? = nil, now: Date
    ) {
        self.key = key
        self.saleID = saleID
        self.serviceID = serviceID
        self.poiID = poiID
        self.operation = operation
        self.amount = amount
        self.currency = currency
        self.originalTransactionID = originalTransactionID
        state = .sent
        createdAt = now
        updatedAt = now
    }
}

extension PaymentJournal {
    /// Creates the table of networked-terminal attempts.
    static func createNetworkedAttemptTable(_ db: Database) throws {
        try db.create(table: NetworkedAttempt.tableName) { t in
            t.primaryKey("key", .text)
            t.column("saleID", .text).notNull()
            t.column("serviceID", .text).notNull()
            t.column("poiID", .text).notNull()
            t.column("operation", .text).notNull()
            t.column("amount", .integer)
            t.column("currency", .text).notNull()
            t.column("originalTransactionID", .text)
            t.column("state", .text).notNull()
            t.column("outcome", .text)
            t.column("transactionID", .text)
            t.column("maskedPAN", .text)
            t.column("createdAt", .double).notNull()
            t.column("updatedAt", .double).notNull()
        }
    }

    /// Writes `attempt` and returns once it is on disk.
    func write(_ attempt: NetworkedAttempt) async throws(MPOSError) {
        var attempt = attempt
        attempt.updatedAt = Date()
        try await writeDurably(sql: NetworkedAttempt.upsertSQL, arguments: attempt.upsertArguments)
    }

    /// The networked attempts with `key`, if any.
    func networkedAttempt(key: IdempotencyKey) throws(MPOSError) -> NetworkedAttempt? {
        try readNetworked("SELECT * FROM \(NetworkedAttempt.tableName) WHERE key = ?", [key.rawValue]).first
    }

    /// The unfinished attempts made with the terminal `poiID`, oldest first.
    func unfinishedNetworkedAttempts(poiID: String) throws(MPOSError) -> [NetworkedAttempt] {
        try readNetworked(
            "SELECT * FROM \(NetworkedAttempt.tableName) WHERE state != ? AND poiID = ? ORDER BY createdAt",
            [NetworkedAttempt.State.finished.rawValue, poiID])
    }

    /// The most recent finished payment with the terminal's transaction `id` (for a reversal's
    /// original time stamp).
    func networkedPayment(transactionID id: TransactionID) throws(MPOSError) -> NetworkedAttempt? {
        try readNetworked(
            "SELECT * FROM \(NetworkedAttempt.tableName) WHERE transactionID = ? ORDER BY createdAt DESC LIMIT 1",
            [id.rawValue]
        ).first
    }

    private func readNetworked(_ sql: String, _ arguments: StatementArguments) throws(MPOSError)
        -> [NetworkedAttempt]
    {
        do {
            return try queue.read { db in
                try Row.fetchAll(db, sql: sql, arguments: arguments).map(NetworkedAttempt.init(row:))
            }
        } catch {
            throw MPOSError.journalFailed.withMessage(
                "The payment journal could not be read: \(Self.describe(error)).")
        }
    }
}

extension NetworkedAttempt {
    /// Records a known outcome.
    mutating func finish(with result: PaymentResult) {
        state = .finished
        outcome = result.status
        transactionID = result.transactionID
        maskedPAN = result.maskedPAN
    }
}
