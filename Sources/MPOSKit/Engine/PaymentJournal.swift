import Foundation
import GRDB
import GRDBSQLite
import MPOSCore
import Synchronization

/// The durable record of payment attempts: a SQLite file in WAL mode. Writes that must
/// survive a power loss commit with `synchronous=FULL` (an fsync of the log): an attempt is on
/// disk before its gateway request leaves the device, and its outcome before the app hears
/// of it. The updates in between commit with `NORMAL`, ordered in the log without a sync.
final class PaymentJournal: Sendable {
    let queue: DatabaseQueue
    /// The file the journal lives in, named in errors.
    let path: String
    /// The queued writes in flight and those that failed.
    private let queued = Mutex(QueuedWrites())
    /// The `synchronous` value last set on the connection by a write (nil: not known, so the
    /// next write sets it). Only the journal's writes change the pragma, and they all run one
    /// at a time on the queue's single connection, so this is what the connection has: a
    /// write that finds the value it needs here skips the statement, and one that needs the
    /// other value (a durable write after a relaxed one) always sets it first. The lock is
    /// never contended; it only makes the class `Sendable` without unchecked code.
    private let synchronous = Mutex<Synchronous?>(nil)

    /// A value of `PRAGMA synchronous`.
    enum Synchronous: Sendable {
        /// Every commit syncs the log: for writes that must survive a power loss.
        case full
        /// Commits are ordered in the log, synced at the next durable write or checkpoint.
        case normal

        /// The statement that sets it.
        var sql: String { self == .full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL" }
    }

    /// The page size of a journal this creates.
    static let pageSize = 1024

    /// Opens (creating if needed) the journal at `path`.
    init(path: String) throws(MPOSError) {
        self.path = path
        do {
            try PrivateFile.prepare(path)
            var configuration = Configuration()
            configuration.busyMode = .timeout(5)
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA synchronous = FULL")
                // On Apple's file systems fsync leaves the write in the drive's cache, where a
                // power cut loses it; these make commits and checkpoints ask for F_FULLFSYNC.
                // SQLite ignores them where fsync already reaches the medium (Linux).
                try db.execute(sql: "PRAGMA fullfsync = ON")
                try db.execute(sql: "PRAGMA checkpoint_fullfsync = ON")
                // 1 KiB pages for a new journal (one that exists keeps its size; WAL is not on
                // yet here): a synced write changes a page of the table and one of its key's
                // index, and a sync's cost follows the bytes it writes.
                try db.execute(sql: "PRAGMA page_size = \(Self.pageSize)")
                // Keep the write-ahead log when the journal closes, with the room reserved in
                // it below: the next start reuses it instead of growing a new one.
                var keep: Int32 = 1
                _ = sqlite3_file_control(db.sqliteConnection, nil, SQLITE_FCNTL_PERSIST_WAL, &keep)
            }
            queue = try DatabaseQueue(path: path, configuration: configuration)
            // Another database given by mistake (an app's own, a gateway's) is refused before
            // anything in it changes, journal mode included.
            let tables = try queue.read { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
            }
            if !tables.isEmpty, !tables.contains(JournalEntry.databaseTableName) {
                throw MPOSError.journalFailed.withMessage(
                    "The payment journal could not be opened: \(path) is another SQLite database, not a journal.")
            }
            // A journal made by an older version was readable by every user of the machine.
            try PrivateFile.restrict(path)
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
            migrator.registerMigration("v2-dates-as-seconds") { db in
                // Text dates (`yyyy-MM-dd HH:mm:ss.SSS`, UTC) become seconds since 1970, so that
                // rows written before and after order together (SQLite sorts numbers before text).
                for column in ["createdAt", "updatedAt"] {
                    try db.execute(
                        sql: """
                            UPDATE \(JournalEntry.databaseTableName)
                            SET \(column) = (julianday(\(column)) - 2440587.5) * 86400.0
                            WHERE typeof(\(column)) = 'text'
                            """)
                }
            }
            migrator.registerMigration("v3-owner") { db in try Self.createOwnerTable(db) }
            migrator.registerMigration("v4-networked-attempts") { db in try Self.createNetworkedAttemptTable(db) }
            migrator.registerMigration("v5-installation") { db in try Self.createInstallationTable(db) }
            migrator.registerMigration("v6-owner-instance") { db in try Self.addOwnerInstanceColumn(db) }
            try migrator.migrate(queue)
            try queue.writeWithoutTransaction { db in try Self.reserveLogRoom(db, path: path) }
        } catch let error as MPOSError {
            throw error
        } catch {
            throw MPOSError.journalFailed.withMessage("The payment journal could not be opened: \(Self.describe(error)).")
        }
    }

    /// Reserves room in the write-ahead log for the frames written between two checkpoints,
    /// so that every durable write overwrites instead of growing the file (see
    /// `WriteAheadLogRoom`). Runs inside the queue's exclusive access.
    private static func reserveLogRoom(_ db: Database, path: String) throws {
        try WriteAheadLogRoom.reserve(
            checkpointPages: try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") ?? 1000,
            pageSize: try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096, inLogAt: path + "-wal")
    }

    /// Inserts or replaces `entry`, durably, and returns when it is on disk.
    ///
    /// The write runs on the journal's serial queue, after every write already queued with
    /// ``enqueue(_:durable:)``, and the caller awaits it: no Swift concurrency thread is
    /// blocked during the fsync, and the caller still goes on only once the entry is on disk.
    func write(_ entry: JournalEntry) async throws(MPOSError) {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, MPOSError>, Never>) in
            queue.asyncWriteWithoutTransaction { [self] db in
                do {
                    try save(entry, durable: true, in: db)
                    continuation.resume(returning: .success(()))
                } catch {
                    continuation.resume(returning: .failure(Self.writeFailure(error)))
                }
            }
        }
        try result.get()
    }

    /// Queues the write of `entry` and returns at once, so that the caller goes on (talking to
    /// the reader) while SQLite writes and syncs on the journal's own queue. Writes run in the
    /// order they were queued, ``write(_:)``'s included (it is queued behind them).
    ///
    /// - Parameter durable: whether the commit is synced to disk (`synchronous=FULL`) or only
    ///   ordered in the write-ahead log (`NORMAL`: it survives the app's crash, and the next
    ///   durable write carries it to disk). ``settleDurable()`` waits for the durable ones.
    func enqueue(_ entry: JournalEntry, durable: Bool) {
        if durable { queued.withLock { $0.durableQueued() } }
        queue.asyncWriteWithoutTransaction { [self] db in
            var failure: QueuedWriteFailure?
            do { try save(entry, durable: durable, in: db) } catch {
                failure = QueuedWriteFailure(entry: entry, durable: durable, error: Self.writeFailure(error))
            }
            let waiters = queued.withLock { $0.finished(durable: durable, failure: failure) }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// Waits until every queued durable write is on disk (or failed) and returns the queued
    /// writes that failed since the last call, in order. Returns at once when no durable
    /// write is pending, as is usual by the time a sale goes online.
    func settleDurable() async -> [QueuedWriteFailure] {
        let done = queued.withLock { $0.pendingDurable == 0 }
        if !done {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = queued.withLock { state -> Bool in
                    guard state.pendingDurable > 0 else { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        }
        return queued.withLock { $0.takeFailures() }
    }

    /// A queued write that failed.
    struct QueuedWriteFailure: Sendable {
        var entry: JournalEntry
        var durable: Bool
        var error: MPOSError
    }

    /// The bookkeeping of queued writes: how many durable ones are still on their way, who
    /// waits for them, and which writes failed.
    struct QueuedWrites {
        private(set) var pendingDurable = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
        private var failures: [QueuedWriteFailure] = []

        mutating func durableQueued() { pendingDurable += 1 }

        /// Records a finished write; returns the waiters to resume when no durable write is
        /// pending any more.
        mutating func finished(durable: Bool, failure: QueuedWriteFailure?) -> [CheckedContinuation<Void, Never>] {
            if let failure { failures.append(failure) }
            guard durable else { return [] }
            pendingDurable -= 1
            guard pendingDurable == 0 else { return [] }
            defer { waiters = [] }
            return waiters
        }

        mutating func takeFailures() -> [QueuedWriteFailure] {
            defer { failures = [] }
            return failures
        }
    }

    /// Inserts or replaces `entry` on the journal's queue, with the `synchronous` value its
    /// durability needs. Must run on the queue: it reads and sets ``synchronous``.
    private func save(_ entry: JournalEntry, durable: Bool, in db: Database) throws {
        try setSynchronous(durable ? .full : .normal, in: db)
        // One statement, committed on its own (SQLite's autocommit): no transaction to open.
        try db.cachedStatement(sql: JournalEntry.upsertSQL).execute(arguments: entry.upsertArguments)
    }

    /// Runs one statement on the journal's queue, after every write already queued, and
    /// returns once its commit is synced to disk (for tables beside the attempts').
    func writeDurably(sql: String, arguments: StatementArguments) async throws(MPOSError) {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, MPOSError>, Never>) in
            queue.asyncWriteWithoutTransaction { [self] db in
                do {
                    try setSynchronous(.full, in: db)
                    try db.cachedStatement(sql: sql).execute(arguments: arguments)
                    continuation.resume(returning: .success(()))
                } catch {
                    continuation.resume(returning: .failure(Self.writeFailure(error)))
                }
            }
        }
        try result.get()
    }

    /// Sets the connection's `synchronous` pragma to `needed`. Must run on the queue.
    private func setSynchronous(_ needed: Synchronous, in db: Database) throws {
        // The connection keeps the last value: set it only when it changes, and never let a
        // durable write run with the relaxed one.
        if synchronous.withLock({ $0 }) != needed {
            synchronous.withLock { $0 = nil }
            // Not a cached statement: SQLite applies this pragma while it compiles it, so a
            // prepared one run again would change nothing.
            try db.execute(sql: needed.sql)
            synchronous.withLock { $0 = needed }
        }
    }

    private static func writeFailure(_ error: any Error) -> MPOSError {
        MPOSError.journalFailed.withMessage("The payment journal could not be written: \(describe(error)).")
    }

    /// The entry with `key`, if any.
    func entry(key: IdempotencyKey) throws(MPOSError) -> JournalEntry? {
        do { return try queue.read { db in try JournalEntry.fetchOne(db, key: key.rawValue) } } catch {
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

    /// The entries created at or after `date`, oldest first.
    func entries(since date: Date) throws(MPOSError) -> [JournalEntry] {
        do {
            return try queue.read { db in
                try JournalEntry.filter(Column("createdAt") >= JournalEntry.storedDate(date))
                    .order(Column("createdAt")).fetchAll(db)
            }
        } catch {
            throw MPOSError.journalFailed.withMessage("The payment journal could not be read: \(Self.describe(error)).")
        }
    }

    /// Every entry, oldest first (for tools and tests).
    func all() throws(MPOSError) -> [JournalEntry] {
        do { return try queue.read { db in try JournalEntry.order(Column("createdAt")).fetchAll(db) } } catch {
            throw MPOSError.journalFailed.withMessage("The payment journal could not be read: \(Self.describe(error)).")
        }
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return "SQLite \(error.resultCode.rawValue)" }
        if let error = error as? JournalEntry.MalformedValue { return error.description }
        return "\(type(of: error))"
    }
}
