import Foundation
import GRDB
import MPOSCore

/// One journaled attempt: enough to finish it after a crash, never card data beyond the
/// masked PAN (first 6 / last 4).
struct JournalEntry: Sendable, Hashable, Codable, FetchableRecord, PersistableRecord {
    /// Where an attempt stands.
    enum State: String, Sendable, Hashable, Codable, DatabaseValueConvertible {
        /// Written before any request left the device; nothing was sent to the gateway yet.
        case created
        /// The gateway request may have left: its outcome is known only to the gateway.
        case authorizing
        /// The gateway approved; the card's final word is pending.
        case approved
        /// A reversal of the approved transaction is due.
        case reversing
        /// Nothing more to do.
        case finished
    }

    static let databaseTableName = "attempt"

    /// The idempotency key of the gateway request; the primary key.
    var key: String
    /// `sale`, `refund`, `void`.
    var operation: String
    /// The reader's transaction id (sales only).
    var readerTransactionID: String?
    /// The transaction a refund or void acts on.
    var originalTransactionID: String?
    var amount: Int64?
    var currency: String?
    var state: State
    /// First 6 / last 4 at most.
    var maskedPAN: String?
    /// The gateway's transaction id once known.
    var gatewayTransactionID: String?
    /// How it ended (a ``PaymentStatus`` raw value) once finished.
    var outcome: String?
    var createdAt: Date
    var updatedAt: Date

    /// The idempotency key of the reversal of this attempt: derived, so a retry after a
    /// restart reuses it.
    var reversalKey: IdempotencyKey { IdempotencyKey(rawValue: String((key + "-rev").prefix(64)))! }
}

/// The durable record of payment attempts: a SQLite file in WAL mode with
/// `synchronous=FULL`, so an entry the engine wrote survives a crash before the request
/// that follows it leaves the device.
final class PaymentJournal: Sendable {
    private let queue: DatabaseQueue

    /// Opens (creating if needed) the journal at `path`.
    init(path: String) throws(MPOSError) {
        do {
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
            if !directory.isEmpty {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
            var configuration = Configuration()
            configuration.busyMode = .timeout(5)
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA synchronous = FULL")
            }
            queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.writeWithoutTransaction { db in
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            }
            var migrator = DatabaseMigrator()
            migrator.registerMigration("v1") { db in
                try db.create(table: JournalEntry.databaseTableName) { t in
                    t.primaryKey("key", .text)
                    t.column("operation", .text).notNull()
                    t.column("readerTransactionID", .text)
                    t.column("originalTransactionID", .text)
                    t.column("amount", .integer)
                    t.column("currency", .text)
                    t.column("state", .text).notNull()
                    t.column("maskedPAN", .text)
                    t.column("gatewayTransactionID", .text)
                    t.column("outcome", .text)
                    t.column("createdAt", .datetime).notNull()
                    t.column("updatedAt", .datetime).notNull()
                }
            }
            try migrator.migrate(queue)
        } catch {
            throw MPOSError.journalFailed.withMessage("The payment journal could not be opened: \(Self.describe(error)).")
        }
    }

    /// Inserts or replaces `entry`, durably.
    func write(_ entry: JournalEntry) throws(MPOSError) {
        do { try queue.write { db in try entry.save(db) } } catch {
            throw MPOSError.journalFailed.withMessage("The payment journal could not be written: \(Self.describe(error)).")
        }
    }

    /// The entry with `key`, if any.
    func entry(key: String) throws(MPOSError) -> JournalEntry? {
        do { return try queue.read { db in try JournalEntry.fetchOne(db, key: key) } } catch {
            throw MPOSError.journalFailed.withMessage("The payment journal could not be read: \(Self.describe(error)).")
        }
    }

    /// Every entry not yet finished, oldest first.
    func unfinished() throws(MPOSError) -> [JournalEntry] {
        do {
            return try queue.read { db in
                try JournalEntry.filter(Column("state") != JournalEntry.State.finished.rawValue)
                    .order(Column("createdAt")).fetchAll(db)
            }
        } catch {
            throw MPOSError.journalFailed.withMessage("The payment journal could not be read: \(Self.describe(error)).")
        }
    }

    /// A pragma's current value (`journal_mode`, `synchronous`), for tests and diagnostics.
    func pragma(_ name: String) throws(MPOSError) -> String? {
        guard name.allSatisfy({ $0.isLetter || $0 == "_" }) else { return nil }
        do { return try queue.read { db in try String.fetchOne(db, sql: "PRAGMA \(name)") } } catch {
            throw MPOSError.journalFailed.withMessage("The payment journal could not be read: \(Self.describe(error)).")
        }
    }

    /// Every entry, oldest first (for tools and tests).
    func all() throws(MPOSError) -> [JournalEntry] {
        do { return try queue.read { db in try JournalEntry.order(Column("createdAt")).fetchAll(db) } } catch {
            throw MPOSError.journalFailed.withMessage("The payment journal could not be read: \(Self.describe(error)).")
        }
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return "SQLite \(error.resultCode.rawValue)" }
        return "\(type(of: error))"
    }
}
