import Foundation
import GRDB

/// Group commit on SQLite: writes that arrive while a commit is in flight are run together in
/// the next transaction, so many concurrent payments share one fsync.
///
/// A body that throws loses only its own changes and its caller gets the error; the other
/// bodies of the group still commit. Every caller returns only after the group's commit. The
/// queue is the one both engines share (``GroupCommitQueue``); SQLite supplies how a group
/// commits (``SQLiteGroupCommit``).
///
/// Given the connection's ``DeferredCheckpoint`` (``GatewayStore`` gives its own), a commit
/// that takes the write-ahead log past its checkpoint threshold answers the group first and
/// checkpoints before the next group; without one, SQLite checkpoints inside the commit.
public final class GroupCommitLedgerWriter: LedgerWriter, Sendable {
    /// The database.
    public let database: any DatabaseWriter
    private let queue: GroupCommitQueue<SQLiteGroupCommit>

    /// Creates a writer over `database`; SQLite checkpoints inside the commits as usual.
    public convenience init(database: any DatabaseWriter, maximumGroupSize: Int = 256) {
        self.init(database: database, checkpoints: nil, maximumGroupSize: maximumGroupSize)
    }

    /// Creates a writer over `database` that defers the checkpoints of its commits to
    /// `checkpoints`, the hook installed on the database's writer connection.
    init(database: any DatabaseWriter, checkpoints: DeferredCheckpoint?, maximumGroupSize: Int = 256) {
        self.database = database
        queue = GroupCommitQueue(
            engine: SQLiteGroupCommit(database: database, checkpoints: checkpoints),
            maximumGroupSize: maximumGroupSize)
    }

    /// The most bodies one transaction takes.
    public var maximumGroupSize: Int { queue.maximumGroupSize }

    /// How many group transactions this writer has committed.
    public var committedGroups: Int { queue.committedGroups }

    /// How many checkpoints the writer's groups deferred, and how many other writes on the
    /// same connection ran inside their commit (nil without a hook).
    var checkpointCounts: (deferred: Int, inline: Int)? { queue.engine.checkpoints?.counts }

    /// Queues `body` for the next group and waits for its commit.
    public func write<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T
    {
        try await queue.write(body)
    }

    /// Queues `body` to run in `lockOrder`'s place in its group (``LedgerWriter``).
    public func write<T: Sendable>(lockOrder: String, _ body: @escaping @Sendable (any SQLSession) throws -> T)
        async throws -> T
    {
        try await queue.write(lockOrder: lockOrder, body)
    }
}
