/// Group commit on PostgreSQL: the queue both engines share (``GroupCommitQueue``), its
/// groups committed by ``PostgresGroupCommit``.
typealias PostgresGroupCommitWriter = GroupCommitQueue<PostgresGroupCommit>

extension GroupCommitQueue where Engine == PostgresGroupCommit {
    /// A writer over `lanes` (one group per lane at a time).
    convenience init(lanes: PostgresLanePool, maximumGroupSize: Int = 256, maximumAttempts: Int = 5) {
        self.init(
            engine: PostgresGroupCommit(lanes: lanes), maximumGroupSize: maximumGroupSize,
            maximumAttempts: maximumAttempts)
    }
}

/// How a group commits on PostgreSQL: in a `READ COMMITTED` transaction on one of a few
/// lanes (connections), run again on a serialization failure (`40001`) or a deadlock
/// (`40P01`).
///
/// Unlike SQLite's single writer, PostgreSQL commits concurrent transactions, so several
/// lanes drain groups in parallel, in this instance and in every other on the same database:
/// no lock or row is taken by every group (the daily figures a sale moves are appended,
/// ``DailyTotalChanges``), so groups of different lanes commit at once.
struct PostgresGroupCommit: GroupCommitEngine {
    /// The lanes groups commit on.
    let lanes: PostgresLanePool

    /// One group per lane.
    var concurrentGroups: Int { lanes.size }

    func startDrain(_ drain: @escaping @Sendable (PostgresLane) -> Void) -> Bool {
        lanes.submit(drain)
    }

    var closedError: any Error { PostgresEngineError.client("The database is closed.") }

    /// Without savepoints the session leaves out those the bodies open too (each would cost
    /// the group's turn two round trips, `SAVEPOINT` and `RELEASE`).
    func commit(on lane: PostgresLane, savepoints: Bool, _ group: (PostgresSession) throws -> Void) throws {
        do {
            let session = try lane.session()
            session.optimistic = false
            try session.execute(sql: "BEGIN ISOLATION LEVEL READ COMMITTED")
            session.optimistic = !savepoints
            defer { session.optimistic = false }
            try group(session)
            try session.execute(sql: "COMMIT")
        } catch {
            lane.rollback(after: error)
            throw error
        }
    }

    func isRetryable(_ error: any Error) -> Bool {
        (error as? PostgresEngineError)?.isRetryable == true
    }
}
