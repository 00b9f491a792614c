import GRDB
import GRDBSQLite
import Synchronization

/// Takes the write-ahead log's automatic checkpoint out of the commit that crosses its
/// threshold, so that a group writer can answer the group first and checkpoint after.
///
/// SQLite checkpoints a WAL database inside the `COMMIT` that takes the log past
/// `wal_autocheckpoint` frames, so every request of a group would wait for a checkpoint its
/// commit did not need (docs/performance.md, "Deferred checkpoints").
///
/// Installed on a connection as its WAL hook (which replaces SQLite's automatic checkpoint
/// on that connection), it checkpoints as SQLite would, in the commit, unless a caller has
/// said it will checkpoint itself (``deferring(_:)``); then it notes that one is due, which
/// that caller takes (``takeDue()``) to run it. Writes that do not defer — account changes,
/// migrations, a plain `write` on the pool — keep SQLite's behaviour.
///
/// One per connection, installed by its owner (``GatewayStore`` on its writer connection at
/// open) and shared by every writer on that connection.
final class DeferredCheckpoint: Sendable {
    /// The log's size, in frames, from which a commit makes a checkpoint due.
    let thresholdFrames: Int32
    private struct State {
        var deferring = false
        var due = false
        var deferred = 0
        var inline = 0
    }
    private let state = Mutex(State())
    private init(thresholdFrames: Int32) { self.thresholdFrames = max(1, thresholdFrames) }

    /// Installs a hook on `db` and returns it: past `thresholdFrames` (the connection's
    /// `wal_autocheckpoint` when nil) a commit checkpoints or, deferring, makes one due.
    ///
    /// The connection keeps the hook alive for as long as it lives (it is small, and its owner
    /// installs one per connection). A later install or `PRAGMA wal_autocheckpoint` on the
    /// same connection replaces it, and the replaced hook is then never called again.
    static func install(on db: Database, thresholdFrames: Int32? = nil) throws -> DeferredCheckpoint {
        let threshold =
            try thresholdFrames ?? Int32(Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") ?? 1000)
        let hook = DeferredCheckpoint(thresholdFrames: threshold)
        let context = Unmanaged.passRetained(hook).toOpaque()
        sqlite3_wal_hook(
            db.sqliteConnection,
            { context, connection, name, frames in
                guard let context else { return SQLITE_OK }
                let hook = Unmanaged<DeferredCheckpoint>.fromOpaque(context).takeUnretainedValue()
                guard frames >= hook.thresholdFrames else { return SQLITE_OK }
                if hook.noteDueIfDeferring() { return SQLITE_OK }
                // What SQLite's own hook does: a passive checkpoint, whose errors the commit
                // ignores (the commit is already durable; the next one tries again).
                _ = sqlite3_wal_checkpoint_v2(connection, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
                return SQLITE_OK
            }, context)
        return hook
    }

    /// Runs `body` (one transaction on the hooked connection) with checkpoints deferred: a
    /// commit inside it that crosses the threshold leaves the checkpoint due (``takeDue()``).
    func deferring<T>(_ body: () throws -> T) rethrows -> T {
        state.withLock { $0.deferring = true }
        defer { state.withLock { $0.deferring = false } }
        return try body()
    }

    /// Whether a deferred commit left a checkpoint to run; the caller then runs it (passive,
    /// like SQLite's own), and it is no longer due.
    func takeDue() -> Bool {
        state.withLock { state in
            defer { state.due = false }
            return state.due
        }
    }

    /// How many checkpoints were deferred, and how many ran inside a commit.
    var counts: (deferred: Int, inline: Int) { state.withLock { ($0.deferred, $0.inline) } }

    /// Called by the hook once the log is past the threshold: true when a writer defers
    /// (the checkpoint is then due), false when the commit must checkpoint now.
    private func noteDueIfDeferring() -> Bool {
        state.withLock { state in
            if state.deferring {
                state.due = true
                state.deferred += 1
                return true
            }
            state.inline += 1
            return false
        }
    }
}
