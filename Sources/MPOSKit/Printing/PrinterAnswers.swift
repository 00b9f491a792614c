import MPOSCore
import Synchronization

/// The printer's answers to `DLE EOT`, one byte at a time, each awaited for at most a timeout
/// on the injected clock.
final class PrinterAnswers: Sendable {
    private struct State {
        var bytes: [UInt8] = []
        var waiter: CheckedContinuation<UInt8?, Never>?
        var finished = false
    }

    private let state = Mutex(State())
    private let pump: Mutex<Task<Void, Never>?> = Mutex(nil)

    init(_ incoming: AsyncStream<[UInt8]>) {
        // Unstructured: reads the link for the connection's life; cancelled by `stop()`.
        let task = Task { [weak self] in
            for await chunk in incoming { self?.receive(chunk) }
            self?.finish()
        }
        pump.withLock { $0 = task }
    }

    func stop() {
        pump.withLock { $0?.cancel() }
        finish()
    }

    /// The next answer byte, or nil when none comes within `timeout` or the link closed.
    func next(within timeout: Duration, on clock: any Clock<Duration>) async -> UInt8? {
        let answer = await Deadline.first({ await self.nextByte() }, orNilAfter: timeout, on: clock)
        if answer == nil { abandonWaiter() }
        return answer ?? nil
    }

    /// Drops bytes that arrived unasked, so that the next answer is the next request's.
    func discardPending() { state.withLock { $0.bytes.removeAll() } }

    private func nextByte() async -> UInt8? {
        await withCheckedContinuation { continuation in
            let ready: UInt8?? = state.withLock { state in
                if !state.bytes.isEmpty { return .some(state.bytes.removeFirst()) }
                if state.finished { return .some(nil) }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    private func receive(_ chunk: [UInt8]) {
        let waiter: (CheckedContinuation<UInt8?, Never>, UInt8)? = state.withLock { state in
            state.bytes += chunk
            guard let waiter = state.waiter, !state.bytes.isEmpty else { return nil }
            state.waiter = nil
            return (waiter, state.bytes.removeFirst())
        }
        if let (continuation, byte) = waiter { continuation.resume(returning: byte) }
    }

    private func finish() {
        let waiter = state.withLock { state in
            state.finished = true
            return state.waiter.take()
        }
        waiter?.resume(returning: nil)
    }

    /// A request that timed out gives up its place: a late byte is kept for no one.
    private func abandonWaiter() {
        state.withLock { $0.waiter.take() }?.resume(returning: nil)
    }
}
