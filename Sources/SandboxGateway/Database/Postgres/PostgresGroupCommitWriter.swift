import Logging
import Synchronization

/// Group commit on PostgreSQL: writes that arrive while a commit is in flight run together
/// in the next transaction, each in a savepoint of its own, so that many concurrent
/// payments share one durable commit.
///
/// A body that throws rolls back to its savepoint and its caller gets the error; the other
/// bodies of the group still commit. Every caller is answered only after its group's
/// COMMIT. When the group meets a serialization failure (`40001`) or a deadlock (`40P01`),
/// in a body or at the COMMIT, the whole transaction is rolled back and the group runs
/// again, a few times at most.
///
/// Unlike SQLite's single writer, PostgreSQL commits concurrent transactions, so several
/// lanes (connections) drain groups in parallel: while one group commits, the next forms
/// and commits on another lane.
final class PostgresGroupCommitWriter: Sendable {
    /// One queued body: runs it in a savepoint (returning its failure), records a failed
    /// commit, resumes its caller.
    private struct Job: Sendable {
        let run: @Sendable (any SQLSession) -> (any Error)?
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

    /// A writer over `lanes` (one group per lane at a time).
    init(lanes: PostgresLanePool, maximumGroupSize: Int = 256, maximumAttempts: Int = 5) {
        self.lanes = lanes
        self.maximumGroupSize = max(1, maximumGroupSize)
        self.maximumAttempts = max(1, maximumAttempts)
    }

    /// How many group transactions this writer has committed.
    var committedGroups: Int { committed.load(ordering: .relaxed) }

    /// Queues `body` for the next group and returns its result once the group committed.
    ///
    /// - Throws: what `body` threw, or the group's commit failure.
    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let box = PostgresResultBox<T>(continuation)
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
            let group: [Job] = state.withLock { state in
                if state.pending.isEmpty {
                    state.draining -= 1
                    return []
                }
                let group = Array(state.pending.prefix(maximumGroupSize))
                state.pending.removeFirst(group.count)
                return group
            }
            if group.isEmpty { return }
            commit(group, on: lane)
            for job in group { job.resume() }
        }
    }

    /// The transaction-scoped lock group transactions take first.
    private static let turn = SQLDialect.postgres.transactionLock(named: "mposkit.groupcommit")!

    /// Runs `group` in one transaction on `lane`, again on a retryable failure.
    private func commit(_ group: [Job], on lane: PostgresLane) {
        var attempt = 1
        while true {
            do {
                let session = try lane.session()
                try session.execute(sql: "BEGIN ISOLATION LEVEL READ COMMITTED")
                // Groups take their turn, whichever lane or instance runs them: every payment
                // raises its merchant's daily total, one row, so groups would wait for each
                // other anyway, and without a turn two groups lock cards and that row in
                // different orders and deadlock (found after deadlock_timeout, a second each).
                _ = try session.fetchValue(Int.self, sql: Self.turn)
                var retryable: (any Error)?
                for job in group {
                    if let error = job.run(session), (error as? PostgresEngineError)?.isRetryable == true {
                        retryable = error
                        break
                    }
                }
                if let retryable { throw retryable }
                try session.execute(sql: "COMMIT")
                committed.add(1, ordering: .relaxed)
                return
            } catch {
                lane.rollback(after: error)
                if (error as? PostgresEngineError)?.isRetryable == true, attempt < maximumAttempts {
                    attempt += 1
                    continue
                }
                for job in group { job.commitFailed(error) }
                return
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

/// Holds one job's result until its group commits, then resumes the caller once.
final class PostgresResultBox<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var result: Result<T, any Error>?
    }
    private let state: Mutex<State>

    init(_ continuation: CheckedContinuation<T, any Error>) {
        state = Mutex(State(continuation: continuation))
    }

    /// Records the job's result (a later call replaces it: a rerun or a failed commit).
    func set(_ result: Result<T, any Error>) {
        state.withLock { $0.result = result }
    }

    /// Resumes the caller with the last result recorded.
    func resume() {
        let (continuation, result) = state.withLock { state in
            defer { state.continuation = nil }
            return (state.continuation, state.result)
        }
        continuation?.resume(with: result ?? .failure(CancellationError()))
    }
}
