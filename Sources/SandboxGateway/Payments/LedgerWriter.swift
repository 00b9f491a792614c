import Foundation
import GRDB
import Synchronization

/// Runs ledger writes. Each body runs in a transaction of its own (a savepoint when writes
/// are grouped), so a body that throws changes nothing.
public protocol LedgerWriter: Sendable {
    /// Runs `body` in a write transaction and returns its result once durably committed.
    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T
}

/// One transaction per write: the simplest writer.
public struct DirectLedgerWriter: LedgerWriter {
    /// The database.
    public let database: any GatewayDatabase

    /// Creates a writer over `database`.
    public init(database: any GatewayDatabase) { self.database = database }

    /// Runs `body` in its own transaction.
    public func write<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        try await database.write(body)
    }
}

/// Group commit on SQLite: writes that arrive while a commit is in flight are run together in the next
/// transaction, each in a savepoint of its own, so many concurrent payments share one fsync.
///
/// A body that throws rolls back to its savepoint and its caller gets the error; the other
/// bodies of the group still commit. Every caller returns only after the group's commit.
///
/// The groups are drained on a thread of the writer's own (a serial dispatch queue used only
/// to run the drain, never to guard state), so the database writer never waits for a turn on
/// Swift's concurrency threads between groups.
///
/// Given the connection's ``DeferredCheckpoint`` (``GatewayStore`` gives its own), a commit
/// that takes the write-ahead log past its checkpoint threshold answers the group first and
/// checkpoints before the next group; without one, SQLite checkpoints inside the commit.
public final class GroupCommitLedgerWriter: LedgerWriter, Sendable {
    /// One queued body: runs it in a savepoint, records a failed commit, resumes its caller.
    private struct Job: Sendable {
        let run: @Sendable (SQLiteSession) -> Void
        let commitFailed: @Sendable (any Error) -> Void
        let resume: @Sendable () -> Void
    }

    /// The database.
    public let database: any DatabaseWriter
    /// The most bodies one transaction takes.
    public let maximumGroupSize: Int
    /// The bodies waiting for the next group, and whether a drain is running.
    private struct Queue {
        var pending: [Job] = []
        var draining = false
    }
    private let state = Mutex(Queue())
    /// The thread the drain runs on.
    private let drainThread = DispatchQueue(label: "mposkit.sandbox-gateway.group-commit")
    /// The hook on the database's writer connection, or nil to let SQLite checkpoint in the commit.
    private let checkpoints: DeferredCheckpoint?
    /// How many group transactions committed.
    private let committed = Atomic<Int>(0)

    /// Creates a writer over `database`; SQLite checkpoints inside the commits as usual.
    public convenience init(database: any DatabaseWriter, maximumGroupSize: Int = 256) {
        self.init(database: database, checkpoints: nil, maximumGroupSize: maximumGroupSize)
    }

    /// Creates a writer over `database` that defers the checkpoints of its commits to
    /// `checkpoints`, the hook installed on the database's writer connection.
    init(database: any DatabaseWriter, checkpoints: DeferredCheckpoint?, maximumGroupSize: Int = 256) {
        self.database = database
        self.checkpoints = checkpoints
        self.maximumGroupSize = max(1, maximumGroupSize)
    }

    /// How many group transactions this writer has committed.
    public var committedGroups: Int { committed.load(ordering: .relaxed) }

    /// How many checkpoints the writer's groups deferred, and how many other writes on the
    /// same connection ran inside their commit (nil without a hook).
    var checkpointCounts: (deferred: Int, inline: Int)? { checkpoints?.counts }

    /// Queues `body` for the next group and waits for its commit.
    public func write<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let box = GroupCommitResult<T>(continuation)
            let job = Job(
                run: { session in
                    do {
                        box.set(.success(try session.db.inCachedSavepoint { try body(session) }))
                    } catch { box.set(.failure(error)) }
                },
                commitFailed: { box.set(.failure($0)) },
                resume: { box.resume() })
            let startDrain = state.withLock { state in
                state.pending.append(job)
                if state.draining { return false }
                state.draining = true
                return true
            }
            if startDrain { drainThread.async { self.drain() } }
        }
    }

    /// Runs `group` in one transaction on `db`, every body on the same session.
    private func commit(_ group: [Job], _ db: Database) throws {
        try db.beginCachedImmediateTransaction()
        let session = SQLiteSession(db)
        for job in group {
            // A job whose failure ended the transaction (SQLite does so for some I/O errors)
            // leaves the others nothing to run in: the commit below then fails and every job
            // of the group hears of it, instead of the rest each committing on their own.
            guard db.isInsideTransaction else { break }
            job.run(session)
        }
        try db.commitCachedTransaction()
    }

    /// Commits groups until none is pending; runs on `drainThread`.
    private func drain() {
        while true {
            let group: [Job] = state.withLock { state in
                if state.pending.isEmpty {
                    state.draining = false
                    return []
                }
                let group = Array(state.pending.prefix(maximumGroupSize))
                state.pending.removeFirst(group.count)
                return group
            }
            if group.isEmpty { return }
            do {
                try database.writeWithoutTransaction { db in
                    if let checkpoints {
                        try checkpoints.deferring { try commit(group, db) }
                    } else {
                        try commit(group, db)
                    }
                }
                committed.add(1, ordering: .relaxed)
            } catch {
                for job in group { job.commitFailed(error) }
            }
            for job in group { job.resume() }
            // The group has its answers; the checkpoint its commit made due delays only the
            // groups after it.
            if checkpoints?.takeDue() == true {
                // A passive checkpoint that cannot run now runs at a later commit; no write depends on it.
                database.writeWithoutTransaction { db in _ = try? db.checkpoint(.passive) }
            }
        }
    }
}
