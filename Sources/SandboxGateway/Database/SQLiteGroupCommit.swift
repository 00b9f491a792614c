import Foundation
import GRDB

/// How a group commits on SQLite: on the pool's one writer connection, in an immediate
/// transaction begun and committed with cached statements.
///
/// The groups are drained on a thread of the writer's own (a serial dispatch queue used only
/// to run the drain, never to guard state), so the database writer never waits for a turn on
/// Swift's concurrency threads between groups.
struct SQLiteGroupCommit: GroupCommitEngine {
    /// The database.
    let database: any DatabaseWriter
    /// The hook on the database's writer connection, or nil to let SQLite checkpoint in the commit.
    let checkpoints: DeferredCheckpoint?
    /// The thread the drain runs on.
    private let drainThread = DispatchQueue(label: "mposkit.sandbox-gateway.group-commit")

    init(database: any DatabaseWriter, checkpoints: DeferredCheckpoint?) {
        self.database = database
        self.checkpoints = checkpoints
    }

    /// One writer: one group at a time.
    var concurrentGroups: Int { 1 }

    func startDrain(_ drain: @escaping @Sendable (()) -> Void) -> Bool {
        drainThread.async { drain(()) }
        return true
    }

    /// Never used: a closed pool fails each group's commit instead.
    var closedError: any Error {
        DatabaseError(resultCode: .SQLITE_MISUSE, message: "The database is closed.")
    }

    func commit(on connection: Void, savepoints: Bool, _ group: (SQLiteSession) throws -> Void) throws {
        try database.writeWithoutTransaction { db in
            if let checkpoints {
                try checkpoints.deferring { try Self.commit(db, group) }
            } else {
                try Self.commit(db, group)
            }
        }
    }

    /// Runs `group` in one transaction on `db`, every body on the same session.
    private static func commit(_ db: Database, _ group: (SQLiteSession) throws -> Void) throws {
        try db.beginCachedImmediateTransaction()
        do {
            try group(SQLiteSession(db))
        } catch {
            db.rollbackCachedTransaction()
            throw error
        }
        try db.commitCachedTransaction()
    }

    /// SQLite ends the transaction on some I/O errors; the commit then fails for the group.
    func isOpen(_ session: SQLiteSession) -> Bool { session.db.isInsideTransaction }

    /// Runs the checkpoint the group's commit made due, now that its callers have their answers.
    func groupAnswered(on connection: Void) {
        guard checkpoints?.takeDue() == true else { return }
        // A passive checkpoint that cannot run now runs at a later commit; no write depends on it.
        database.writeWithoutTransaction { db in _ = try? db.checkpoint(.passive) }
    }
}
