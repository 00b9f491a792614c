import Synchronization

/// Group commit, for either engine: writes that arrive while a group is committing wait and
/// run together in the next transaction, so that many concurrent payments share one durable
/// commit. What differs between engines is its ``GroupCommitEngine``.
///
/// A group's first attempt runs its bodies without savepoints, which would cost every body
/// statements of their own (round trips on PostgreSQL). When a body throws, that attempt is
/// rolled back and the group runs again with a savepoint per body: a body that throws then
/// loses only its own changes and its caller gets the error; the other bodies of the group
/// still commit. Every caller is answered only after its group's commit, or with the commit's
/// failure. When the engine calls a failure retryable (PostgreSQL's serialization failures
/// and deadlocks), in a body or at the commit, the whole group is rolled back and runs again,
/// ``maximumAttempts`` times at most. Bodies may therefore run more than once; only the last
/// run's result reaches the caller. A group runs its bodies in the order of their lock order
/// (those without one first, in arrival order): groups on different connections (lanes,
/// instances) then take shared rows, such as a card's, in one order and cannot deadlock.
final class GroupCommitQueue<Engine: GroupCommitEngine>: Sendable {
    /// One queued body: runs it (in a savepoint when asked) and returns its failure, records
    /// a failed commit, resumes its caller.
    private struct Job: Sendable {
        /// Where the body runs within its group: nil first, then in this order.
        let lockOrder: String?
        let run: @Sendable (Engine.Session, _ inSavepoint: Bool) -> (any Error)?
        let commitFailed: @Sendable (any Error) -> Void
        let resume: @Sendable () -> Void
    }
    private struct Queue {
        var pending: [Job] = []
        /// How many drains are running now.
        var draining = 0
    }

    /// How each group begins, commits and rolls back.
    let engine: Engine
    /// The most bodies one transaction takes.
    let maximumGroupSize: Int
    /// How many times a group runs at most when it meets a retryable failure.
    let maximumAttempts: Int
    private let state = Mutex(Queue())
    private let committed = Atomic<Int>(0)
    private let retried = Atomic<Int>(0)

    /// A queue committing its groups with `engine`.
    init(engine: Engine, maximumGroupSize: Int = 256, maximumAttempts: Int = 5) {
        self.engine = engine
        self.maximumGroupSize = max(1, maximumGroupSize)
        self.maximumAttempts = max(1, maximumAttempts)
    }

    /// How many group transactions committed.
    var committedGroups: Int { committed.load(ordering: .relaxed) }

    /// How many times a group ran again after a retryable failure.
    var retriedGroups: Int { retried.load(ordering: .relaxed) }

    /// How many writes are waiting for a group now.
    var waitingWrites: Int { state.withLock { $0.pending.count } }

    /// Queues `body` for the next group and returns its result once the group committed.
    ///
    /// - Throws: what `body` threw, or the group's commit failure.
    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        try await enqueue(lockOrder: nil, body)
    }

    /// Queues `body` for the next group, to run there in `lockOrder`'s place (``GroupCommitQueue``).
    func write<T: Sendable>(lockOrder: String, _ body: @escaping @Sendable (any SQLSession) throws -> T)
        async throws -> T
    {
        try await enqueue(lockOrder: lockOrder, body)
    }

    private func enqueue<T: Sendable>(lockOrder: String?, _ body: @escaping @Sendable (any SQLSession) throws -> T)
        async throws -> T
    {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let box = GroupCommitResult<T>(continuation)
            let job = Job(
                lockOrder: lockOrder,
                run: { session, inSavepoint in
                    do {
                        box.set(
                            .success(
                                try inSavepoint ? session.inSavepoint { try body(session) } : body(session)))
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
                guard state.draining < engine.concurrentGroups else { return false }
                state.draining += 1
                return true
            }
            if startDrain, !engine.startDrain({ connection in self.drain(on: connection) }) {
                state.withLock { $0.draining -= 1 }
                failPending(engine.closedError)
            }
        }
    }

    /// Commits groups on `connection` until none is pending.
    private func drain(on connection: Engine.Connection) {
        while true {
            let more = state.withLock { state in
                if state.pending.isEmpty {
                    state.draining -= 1
                    return false
                }
                return true
            }
            guard more else { return }
            let group = commitNextGroup(on: connection)
            for job in group { job.resume() }
            engine.groupAnswered(on: connection)
        }
    }

    /// Takes the next group from the queue (empty when another drain took it), in lock order.
    private func takeGroup() -> [Job] {
        let group = state.withLock { state in
            let group = Array(state.pending.prefix(maximumGroupSize))
            state.pending.removeFirst(group.count)
            return group
        }
        return Self.inLockOrder(group)
    }

    /// `jobs` without a lock order first, in arrival order, then the others by their order
    /// (stable: equal orders keep their arrival order).
    private static func inLockOrder(_ jobs: [Job]) -> [Job] {
        jobs.enumerated().sorted { lhs, rhs in
            switch (lhs.element.lockOrder, rhs.element.lockOrder) {
            case (nil, nil): lhs.offset < rhs.offset
            case (nil, _): true
            case (_, nil): false
            case (let left?, let right?): left == right ? lhs.offset < rhs.offset : left < right
            }
        }.map(\.element)
    }

    /// Opens a transaction on `connection`, takes the next group (as late as can be, so that
    /// it is as large as can be), runs it and commits; again when a body failed without
    /// savepoints or on a retryable failure. Returns the group, its callers' results set.
    private func commitNextGroup(on connection: Engine.Connection) -> [Job] {
        var group: [Job]?
        var attempt = 1
        var savepoints = false
        while true {
            var bodyFailed = false
            do {
                try engine.commit(on: connection, savepoints: savepoints) { session in
                    let jobs = group ?? takeGroup()
                    group = jobs
                    for job in jobs {
                        guard let error = job.run(session, savepoints) else { continue }
                        if !savepoints {
                            bodyFailed = true
                            throw error
                        }
                        if engine.isRetryable(error) { throw error }
                        guard engine.isOpen(session) else { break }
                    }
                }
                if group?.isEmpty == false { committed.add(1, ordering: .relaxed) }
                return group ?? []
            } catch {
                if bodyFailed {
                    // Again with savepoints, whatever the body's failure: that attempt does
                    // not count. (A failed commit is not rerun this way: it may have committed.)
                    savepoints = true
                    continue
                }
                if engine.isRetryable(error), attempt < maximumAttempts {
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

    /// Answers every pending caller with `error` (the engine is closed).
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

/// The queue is a ledger writer, whichever engine commits its groups.
extension GroupCommitQueue: LedgerWriter {}
