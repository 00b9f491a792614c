import Synchronization

/// Races work against a timeout on an injected clock.
enum Deadline {
    /// The work's answer, or nil when `timeout` passes first. The work keeps running; a late
    /// answer goes to `discard` (to close what it opened) instead of the caller.
    static func first<Value: Sendable>(
        _ work: @escaping @Sendable () async -> Value, orNilAfter timeout: Duration,
        on clock: any Clock<Duration>,
        discard: (@Sendable (Value) async -> Void)? = nil
    ) async -> Value? {
        let once = OnceContinuation<Value?>()
        let answer = await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
            once.set(continuation)
            // Unstructured: the work may outlive the deadline; its late answer goes to `discard`.
            Task {
                let value = await work()
                if !once.resume(value) { await discard?(value) }
            }
            // Unstructured: the timer is cancelled when the work answers first.
            once.timer = Task {
                try? await clock.sleep(for: timeout)  // cancelled: the work answered, and `once` ignores this
                once.resume(nil)
            }
        }
        once.timer?.cancel()
        return answer
    }
}

/// A continuation resumed by whichever of several racers answers first.
final class OnceContinuation<Value: Sendable>: Sendable {
    private let state = Mutex<CheckedContinuation<Value, Never>?>(nil)
    private let timerTask = Mutex<Task<Void, Never>?>(nil)

    /// The racer to cancel once the race is decided.
    var timer: Task<Void, Never>? {
        get { timerTask.withLock { $0 } }
        set { timerTask.withLock { $0 = newValue } }
    }

    func set(_ continuation: CheckedContinuation<Value, Never>) {
        state.withLock { $0 = continuation }
    }

    /// Resumes the waiter with `value` unless another racer did; true when this one won.
    @discardableResult
    func resume(_ value: Value) -> Bool {
        guard let continuation = state.withLock({ $0.take() }) else { return false }
        continuation.resume(returning: value)
        return true
    }
}

/// Time elapsed on an injected clock since the stopwatch was made.
struct Stopwatch: Sendable {
    private let read: @Sendable () -> Duration

    init(_ clock: any Clock<Duration>) { read = Self.reader(clock) }

    private static func reader<C: Clock<Duration>>(_ clock: C) -> @Sendable () -> Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }

    /// Time since the start.
    var elapsed: Duration { read() }
}
