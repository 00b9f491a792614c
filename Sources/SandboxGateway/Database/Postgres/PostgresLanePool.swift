import Dispatch
import Logging
import Synchronization

/// A few lanes (connections, each with its own thread) that take jobs in arrival order:
/// a job runs on the first lane free, and a lane that finishes one takes the next waiting.
final class PostgresLanePool: Sendable {
    typealias Job = @Sendable (PostgresLane) -> Void

    private struct State {
        var waiting: [Job] = []
        var idle: [Int]
        var closed = false
        /// The closer waiting for the lanes to finish their work.
        var drained: CheckedContinuation<Void, Never>?
    }
    private let lanes: [PostgresLane]
    private let state: Mutex<State>

    /// A pool of `size` lanes (at least one) named after `label`.
    init(label: String, size: Int, settings: PostgresSettings, logger: Logger) {
        let size = max(1, size)
        lanes = (0..<size).map { PostgresLane(label: "\(label).\($0)", settings: settings, logger: logger) }
        state = Mutex(State(idle: Array((0..<size).reversed())))
    }

    /// How many lanes the pool has.
    var size: Int { lanes.count }

    /// Runs `work` on a lane and returns its result to the async caller.
    ///
    /// - Throws: what `work` throws; ``PostgresEngineError`` once the pool is closed.
    func run<T: Sendable>(_ work: @escaping @Sendable (PostgresLane) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let accepted = submit { lane in continuation.resume(with: Result { try work(lane) }) }
            if !accepted { continuation.resume(throwing: PostgresEngineError.client("The database is closed.")) }
        }
    }

    /// Queues `job` for the first free lane; false once the pool is closed.
    @discardableResult
    func submit(_ job: @escaping Job) -> Bool {
        let start: (Int, Job)?? = state.withLock { state in
            if state.closed { return .none }
            guard let lane = state.idle.popLast() else {
                state.waiting.append(job)
                return .some(nil)
            }
            return .some((lane, job))
        }
        guard let start else { return false }
        if let (index, job) = start { lanes[index].queue.async { self.work(index, first: job) } }
        return true
    }

    /// Runs `first`, then every job waiting, on lane `index`.
    private func work(_ index: Int, first: Job) {
        var job = first
        while true {
            job(lanes[index])
            let (next, drained): (Job?, CheckedContinuation<Void, Never>?) = state.withLock { state in
                if state.waiting.isEmpty {
                    state.idle.append(index)
                    guard state.idle.count == lanes.count, let drained = state.drained else { return (nil, nil) }
                    state.drained = nil
                    return (nil, drained)
                }
                return (state.waiting.removeFirst(), nil)
            }
            drained?.resume()
            guard let next else { return }
            job = next
        }
    }

    /// Refuses new jobs, waits for the queued ones to finish, then closes every connection.
    func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idleNow = state.withLock { state in
                state.closed = true
                if state.idle.count == lanes.count { return true }
                state.drained = continuation
                return false
            }
            if idleNow { continuation.resume() }
        }
        for lane in lanes {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                lane.queue.async {
                    lane.close()
                    continuation.resume()
                }
            }
        }
    }
}
