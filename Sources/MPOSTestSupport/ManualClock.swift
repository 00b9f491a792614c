import Foundation

/// A clock that moves only when told; sleepers wake when it passes their deadline.
public final class ManualClock: Clock, @unchecked Sendable {
    // @unchecked: `current` and `sleepers` are only touched under `lock`.
    /// A point on the manual timeline, as an offset from its start.
    public struct Instant: InstantProtocol {
        public var offset: Duration
        public init(offset: Duration) { self.offset = offset }
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var sleepers: [UUID: Sleeper] = [:]

    /// A clock at offset zero.
    public init() {}

    public var now: Instant { lock.withLock { current } }
    public var minimumResolution: Duration { .zero }
    /// How many sleepers wait.
    public var sleeperCount: Int { lock.withLock { sleepers.count } }
    /// The earliest deadline a sleeper waits for, if any.
    public var nextDeadline: Instant? { lock.withLock { sleepers.values.map(\.deadline).min() } }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Void, any Error>) in
                lock.withLock {
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else if deadline <= current {
                        continuation.resume()
                    } else {
                        sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    }
                }
            }
        } onCancel: {
            lock.withLock { sleepers.removeValue(forKey: id) }?.continuation.resume(
                throwing: CancellationError())
        }
    }

    /// Moves time forward and wakes the sleepers whose deadline has passed.
    public func advance(by duration: Duration) {
        let due = lock.withLock {
            current = current.advanced(by: duration)
            let due = sleepers.filter { $0.value.deadline <= current }
            for id in due.keys { sleepers.removeValue(forKey: id) }
            return due.values
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Waits (yielding, no real time) until someone sleeps until `offset` from the start.
    public func waitForSleeper(until offset: Duration) async {
        while !lock.withLock({ sleepers.values.contains { $0.deadline.offset == offset } }) {
            await Task.yield()
        }
    }

    /// Waits (yielding, no real time) until `count` sleepers are registered.
    public func waitForSleepers(_ count: Int) async {
        while sleeperCount < count { await Task.yield() }
    }
}
