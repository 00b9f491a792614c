import GRDB
import GRDBSQLite
import Synchronization

/// Takes the write-ahead log's automatic checkpoint out of the commit that crosses its
/// threshold, so that a group writer can answer the group first and checkpoint after.
///
/// SQLite checkpoints a WAL database inside the `COMMIT` that takes the log past
/// `wal_autocheckpoint` frames (1,000 by default): it syncs the log, copies its pages into the
/// database and syncs the database before `COMMIT` returns. The commit is durable before any
/// of that starts, yet every request of the group waited for it: on a sale, one in about
/// sixty took 0.5–1 ms longer, which set the p99.
///
/// Installed on a connection as its WAL hook (which replaces SQLite's automatic checkpoint
/// on that connection), it checkpoints as SQLite would, in the commit, unless a caller has
/// said it will checkpoint itself (``deferring(_:)``); then it notes that one is due, which
/// that caller takes (``takeDue()``) to run it. Writes that do not defer — account changes, migrations, a
/// plain `write` on the pool — keep SQLite's behaviour.
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
    /// The contexts of the hooks installed and not yet replaced, as addresses.
    private static let installed = Mutex<Set<UInt>>([])

    private init(thresholdFrames: Int32) { self.thresholdFrames = max(1, thresholdFrames) }

    /// Installs a hook on `db`, at the connection's `wal_autocheckpoint` threshold, and
    /// returns it. The connection's hook keeps it alive for as long as the connection lives
    /// (it is small, and a connection takes one).
    static func install(on db: Database) throws -> DeferredCheckpoint {
        let hook = DeferredCheckpoint(
            thresholdFrames: Int32(try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") ?? 1000))
        let context = Unmanaged.passRetained(hook).toOpaque()
        let previous = sqlite3_wal_hook(db.sqliteConnection, { context, connection, name, frames in
            guard let context else { return SQLITE_OK }
            let hook = Unmanaged<DeferredCheckpoint>.fromOpaque(context).takeUnretainedValue()
            guard frames >= hook.thresholdFrames else { return SQLITE_OK }
            if hook.noteDueIfDeferring() { return SQLITE_OK }
            // What SQLite's own hook does: a passive checkpoint, whose errors the commit
            // ignores (the commit is already durable; the next one tries again).
            _ = sqlite3_wal_checkpoint_v2(connection, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            return SQLITE_OK
        }, context)
        // The hook this one replaced is never called again: if it was one of ours (another
        // writer on the same connection), its retain is given back. SQLite's own automatic
        // checkpoint passes its threshold as the context, which is not ours to release.
        let replaced = installed.withLock { contexts in
            contexts.insert(UInt(bitPattern: context))
            return previous.flatMap { contexts.remove(UInt(bitPattern: $0)) }
        }
        if let replaced, let pointer = UnsafeMutableRawPointer(bitPattern: replaced) {
            Unmanaged<DeferredCheckpoint>.fromOpaque(pointer).release()
        }
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
