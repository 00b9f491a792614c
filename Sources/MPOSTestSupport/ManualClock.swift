import Synchronization

/// A clock that moves only when told; sleepers wake when it passes their deadline.
public final class ManualClock: Clock, Sendable {
    /// A point on the manual timeline, as an offset from its start.
    public struct Instant: InstantProtocol {
        /// How far this instant is from the start of the timeline.
        public var offset: Duration
        /// The instant `offset` after the start.
        public init(offset: Duration) { self.offset = offset }
        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Whether `lhs` comes first.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var current = Instant(offset: .zero)
        var sleepers: [UInt64: Sleeper] = [:]
        var nextSleeperID: UInt64 = 0
    }

    private let state = Mutex(State())

    /// A clock at offset zero.
    public init() {}

    /// Where the clock stands.
    public var now: Instant { state.withLock { $0.current } }
    /// Zero: the clock moves only by ``advance(by:)``.
    public var minimumResolution: Duration { .zero }
    /// How many sleepers wait.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }
    /// The earliest deadline a sleeper waits for, if any.
    public var nextDeadline: Instant? { state.withLock { $0.sleepers.values.map(\.deadline).min() } }

    /// Suspends until ``advance(by:)`` moves the clock to `deadline`; throws
    /// `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = state.withLock { state in
            defer { state.nextSleeperID &+= 1 }
            return state.nextSleeperID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Void, any Error>) in
                state.withLock { state in
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else if deadline <= state.current {
                        continuation.resume()
                    } else {
                        state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    }
                }
            }
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(
                throwing: CancellationError())
        }
    }

    /// Moves time forward and wakes the sleepers whose deadline has passed.
    public func advance(by duration: Duration) {
        let due = state.withLock { state in
            state.current = state.current.advanced(by: duration)
            let now = state.current
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers.removeValue(forKey: id) }
            return Array(due.values)
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Waits (yielding, no real time) until someone sleeps until `offset` from the start.
    public func waitForSleeper(until offset: Duration) async {
        while !state.withLock({ $0.sleepers.values.contains { $0.deadline.offset == offset } }) {
            await Task.yield()
        }
    }

    /// Waits (yielding, no real time) until a sleep started after the first `earlier` sleeps of
    /// this clock waits until `offset` from the start: the later of two timers with the same
    /// deadline, once it is registered.
    public func waitForSleeper(until offset: Duration, startedAfter earlier: Int) async {
        while !state.withLock({ state in
            state.sleepers.contains { $0.key >= UInt64(earlier) && $0.value.deadline.offset == offset }
        }) {
            await Task.yield()
        }
    }

    /// Waits (yielding, no real time) until `count` sleepers are registered.
    public func waitForSleepers(_ count: Int) async {
        while sleeperCount < count { await Task.yield() }
    }
}
