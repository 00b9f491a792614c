import Logging
import Synchronization

/// Group commit on PostgreSQL: writes that arrive while a commit is in flight run together
/// in the next transaction, each in a savepoint of its own, so that many concurrent
/// payments share one durable commit.
///
/// A group's first attempt runs its bodies without savepoints (each costs the group's
/// turn two round trips, `SAVEPOINT` and `RELEASE`, for every nested savepoint too). When a
/// body throws, that attempt is rolled back and the group runs again with a savepoint per
/// body: a body that throws then rolls back to its savepoint and its caller gets the error;
/// the other bodies of the group still commit. Every caller is answered only after its group's
/// COMMIT. When the group meets a serialization failure (`40001`) or a deadlock (`40P01`),
/// in a body or at the COMMIT, the whole transaction is rolled back and the group runs
/// again, a few times at most.
///
/// Unlike SQLite's single writer, PostgreSQL commits concurrent transactions, so several
/// lanes (connections) drain groups in parallel, in this instance and in every other on the
/// same database: no lock or row is taken by every group (the daily figures a sale moves are
/// appended, ``DailyTotalChanges``), so groups of different lanes commit at once.
final class PostgresGroupCommitWriter: Sendable {
    /// One queued body: runs it in a savepoint (returning its failure), records a failed
    /// commit, resumes its caller.
    private struct Job: Sendable {
        /// Runs the body in a savepoint (none in the session's optimistic mode).
        let run: @Sendable (PostgresSession) -> (any Error)?
        let commitFailed: @Sendable (any Error) -> Void
        let resume: @Sendable () -> Void
    }
    private struct Queue {
        var pending: [Job] = []
        /// How many lanes are draining now.
        var draining = 0
    }

    /// The most bodies one transaction takes.
    let maximumGroupSize: Int
    /// How many times a group runs at most when it meets `40001` or `40P01`.
    let maximumAttempts: Int
    private let lanes: PostgresLanePool
    private let state = Mutex(Queue())
    private let committed = Atomic<Int>(0)
    private let retried = Atomic<Int>(0)

    /// A writer over `lanes` (one group per lane at a time).
    init(lanes: PostgresLanePool, maximumGroupSize: Int = 256, maximumAttempts: Int = 5) {
        self.lanes = lanes
        self.maximumGroupSize = max(1, maximumGroupSize)
        self.maximumAttempts = max(1, maximumAttempts)
    }

    /// How many group transactions this writer has committed.
    var committedGroups: Int { committed.load(ordering: .relaxed) }

    /// How many times a group ran again after a serialization failure or a deadlock.
    var retriedGroups: Int { retried.load(ordering: .relaxed) }

    /// Queues `body` for the next group and returns its result once the group committed.
    ///
    /// - Throws: what `body` threw, or the group's commit failure.
    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let box = GroupCommitResult<T>(continuation)
            let job = Job(
                run: { session in
                    do {
                        box.set(.success(try session.inSavepoint { try body(session) }))
                        return nil
                    } catch {
                        box.set(.failure(error))
                        return error
                    }
                },
                commitFailed: { box.set(.failure($0)) },
                resume: { box.resume() })
            let startDrain = state.withLock { state in
                state.pending.append(job)
                guard state.draining < lanes.size else { return false }
                state.draining += 1
                return true
            }
            if startDrain {
                let accepted = lanes.submit { lane in self.drain(on: lane) }
                if !accepted {
                    state.withLock { $0.draining -= 1 }
                    failPending(PostgresEngineError.client("The database is closed."))
                }
            }
        }
    }

    /// Commits groups on `lane` until none is pending.
    private func drain(on lane: PostgresLane) {
        while true {
            let more = state.withLock { state in
                if state.pending.isEmpty {
                    state.draining -= 1
                    return false
                }
                return true
            }
            guard more else { return }
            let group = commitNextGroup(on: lane)
            for job in group { job.resume() }
        }
    }

    /// Takes the next group from the queue (empty when another lane took it).
    private func takeGroup() -> [Job] {
        state.withLock { state in
            let group = Array(state.pending.prefix(maximumGroupSize))
            state.pending.removeFirst(group.count)
            return group
        }
    }

    /// Opens a transaction on `lane`, takes the next group, runs it and commits; again on a
    /// retryable failure. Returns the group, its callers' results set.
    private func commitNextGroup(on lane: PostgresLane) -> [Job] {
        var group: [Job]?
        var attempt = 1
        var optimistic = true
        while true {
            var bodyFailed = false
            do {
                let session = try lane.session()
                session.optimistic = false
                try session.execute(sql: "BEGIN ISOLATION LEVEL READ COMMITTED")
                let jobs = group ?? takeGroup()
                group = jobs
                if jobs.isEmpty {
                    try session.execute(sql: "COMMIT")
                    return []
                }
                session.optimistic = optimistic
                var retryable: (any Error)?
                for job in jobs {
                    guard let error = job.run(session) else { continue }
                    if optimistic || (error as? PostgresEngineError)?.isRetryable == true {
                        bodyFailed = optimistic
                        retryable = error
                        break
                    }
                }
                session.optimistic = false
                if let retryable { throw retryable }
                try session.execute(sql: "COMMIT")
                committed.add(1, ordering: .relaxed)
                return jobs
            } catch {
                lane.rollback(after: error)
                if bodyFailed {
                    // Again with savepoints, whatever the body's failure: that attempt does
                    // not count. (A failed COMMIT is not rerun this way: it may have committed.)
                    optimistic = false
                    continue
                }
                if (error as? PostgresEngineError)?.isRetryable == true, attempt < maximumAttempts {
                    attempt += 1
                    retried.add(1, ordering: .relaxed)
                    continue
                }
                // Failed before a group was taken (the server unreachable): the next group
                // gets the failure, as it would have met it.
                let jobs = group ?? takeGroup()
                for job in jobs { job.commitFailed(error) }
                return jobs
            }
        }
    }

    /// Answers every pending caller with `error` (the lanes are closed).
    private func failPending(_ error: any Error) {
        let jobs = state.withLock { state in
            defer { state.pending.removeAll() }
            return state.pending
        }
        for job in jobs {
            job.commitFailed(error)
            job.resume()
        }
    }
}
