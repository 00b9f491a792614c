import MPOSCore
import ReaderLink
import Synchronization

/// Wraps the reader's side of a link and applies a `FaultPlan` to the reader's writes: the Nth
/// write (counting from 1 over the link's life) can drop the link, be delayed, arrive with a
/// flipped byte, or be the first of many that never arrive. `reboot` faults are reported to
/// the reader through `onReboot` and drop the link.
///
/// A write with no fault, while none waits, goes straight to the link. A write with a fault,
/// and every write after it until the queue is empty again, goes through a task of the
/// transport's own, in order: a delayed write holds back the writes after it, as on a real link.
final class FaultInjectingTransport: ReaderTransport {
    private struct State {
        var writes = 0
        var plan: FaultPlan
        var broken = false
        /// Writes handed to the task and not yet passed on.
        var queued = 0
    }

    /// A write the task plays: its bytes and its faults.
    private struct Queued: Sendable {
        let bytes: [UInt8]
        let faults: [FaultPlan.Fault]
    }

    private let base: any ReaderTransport
    private let clock: any Clock<Duration>
    private let state: Mutex<State>
    private let onReboot: @Sendable () async -> Void
    private let queue: AsyncStream<Queued>.Continuation

    init(
        _ base: any ReaderTransport, plan: FaultPlan, clock: any Clock<Duration>,
        onReboot: @escaping @Sendable () async -> Void
    ) {
        self.base = base
        self.state = Mutex(State(plan: plan))
        self.clock = clock
        self.onReboot = onReboot
        let (writes, queue) = AsyncStream.makeStream(of: Queued.self)
        self.queue = queue
        // Unstructured: faults take time (delays, a reboot, a close) that `send` must not wait
        // for; the task ends when `close()` finishes the queue.
        Task { [self] in
            for await write in writes { await play(write) }
        }
    }

    var maximumWriteLength: Int? { base.maximumWriteLength }
    var incoming: AsyncStream<[UInt8]> { base.incoming }

    /// Replaces the plan; the write count carries on.
    func replacePlan(_ newPlan: FaultPlan) {
        state.withLock { $0.plan = newPlan }
    }

    /// The number of writes so far.
    var writeCount: Int { state.withLock { $0.writes } }

    /// Counts the write and passes it on, or queues it for the task when it has a fault or
    /// others wait. Throws `.linkClosed` once a fault dropped the link.
    func send(_ bytes: [UInt8]) throws(ReaderLinkError) {
        let decision: (faults: [FaultPlan.Fault], queue: Bool)? = state.withLock { state in
            if state.broken { return nil }
            state.writes += 1
            let faults = state.plan.faults(forMessage: state.writes)
            let queue = !faults.isEmpty || state.queued > 0
            if queue { state.queued += 1 }
            return (faults, queue)
        }
        guard let decision else { throw .linkClosed }
        guard decision.queue else {
            do { try base.send(bytes) } catch {
                breakLink()
                throw error
            }
            return
        }
        queue.yield(Queued(bytes: bytes, faults: decision.faults))
    }

    /// Applies a queued write's faults, then passes it on unless a fault swallows it.
    private func play(_ write: Queued) async {
        defer { state.withLock { $0.queued -= 1 } }
        if state.withLock({ $0.broken }) { return }
        var payload = write.bytes
        for fault in write.faults {
            switch fault {
            case .dropLink:
                breakLink()
                await base.close()
                return
            case .reboot:
                // The reader's state resets before its peer can see the link drop.
                breakLink()
                await onReboot()
                await base.close()
                return
            case .stopResponding:
                return
            case .delay(_, let duration):
                try? await clock.sleep(for: duration)
            case .corruptFrame:
                if !payload.isEmpty { payload[payload.count / 2] ^= 0x5A }
            }
        }
        do { try base.send(payload) } catch { breakLink() }
    }

    /// Refuses every later write: the link is going.
    private func breakLink() {
        state.withLock { $0.broken = true }
    }

    func close() async {
        queue.finish()
        await base.close()
    }
}
