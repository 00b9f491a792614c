import MPOSCore
import ReaderLink

/// Wraps the reader's side of a link and applies a `FaultPlan` to the reader's writes: the Nth
/// write (counting from 1 over the link's life) can drop the link, be delayed, arrive with a
/// flipped byte, or be the first of many that never arrive. `reboot` faults are reported to
/// the reader through `onReboot` and drop the link.
///
/// Writes are counted and planned when the session hands them over. A write with no fault
/// goes straight to a base transport that writes without suspending (a socket), so a
/// fault-free link costs no task switch per write; a write with a fault, and every write
/// after it until the backlog is gone, waits in order for a drain task that applies the
/// faults (a delay holds back what follows it, as on a real link).
final class FaultInjectingTransport: ImmediateWriteTransport, PipedIncomingTransport, @unchecked Sendable {
    // @unchecked: `writes`, `plan`, `backlog` and `draining` are only touched under `lock`.
    private let base: any ReaderTransport
    private let immediateBase: (any ImmediateWriteTransport)?
    private let clock: any Clock<Duration>
    private let lock = Mutex()
    private var writes = 0
    private var plan: FaultPlan
    private var backlog: [(bytes: [UInt8], faults: [FaultPlan.Fault])] = []
    private var draining = false
    private var broken = false
    private let onReboot: @Sendable () async -> Void

    init(
        _ base: any ReaderTransport, plan: FaultPlan, clock: any Clock<Duration>,
        onReboot: @escaping @Sendable () async -> Void
    ) {
        self.base = base
        self.immediateBase = base as? any ImmediateWriteTransport
        self.plan = plan
        self.clock = clock
        self.onReboot = onReboot
    }

    var maximumWriteLength: Int? { base.maximumWriteLength }
    var incoming: AsyncStream<[UInt8]> { base.incoming }
    var incomingPipe: AsyncPipe<[UInt8]>? { (base as? any PipedIncomingTransport)?.incomingPipe }

    /// Replaces the plan; the write count carries on.
    func replacePlan(_ newPlan: FaultPlan) {
        lock.withLock { plan = newPlan }
    }

    /// The number of writes so far.
    var writeCount: Int { lock.withLock { writes } }

    func send(_ bytes: [UInt8]) async throws(ReaderLinkError) {
        try enqueue(bytes)
    }

    /// Counts the write, looks its faults up, and writes it now when nothing is held back
    /// and it has none; otherwise queues it behind the backlog for the drain task.
    func enqueue(_ bytes: [UInt8]) throws(ReaderLinkError) {
        enum Step { case now, queued, startDrain, closed }
        let step: Step = lock.withLock {
            if broken { return .closed }
            writes += 1
            let faults = plan.faults(forMessage: writes)
            if faults.isEmpty, !draining, immediateBase != nil { return .now }
            backlog.append((bytes, faults))
            if draining { return .queued }
            draining = true
            return .startDrain
        }
        switch step {
        case .closed: throw .linkClosed
        case .now: try immediateBase?.enqueue(bytes)
        case .queued: break
        case .startDrain: Task { await drain() }
        }
    }

    /// Writes the backlog in order, applying each write's faults, until it is empty.
    private func drain() async {
        while true {
            let next: (bytes: [UInt8], faults: [FaultPlan.Fault])? = lock.withLock {
                if backlog.isEmpty {
                    draining = false
                    return nil
                }
                return backlog.removeFirst()
            }
            guard let next else { return }
            if await !write(next.bytes, faults: next.faults) { return }
        }
    }

    /// Refuses every later write and forgets the backlog: the link is going.
    private func breakLink() {
        lock.withLock {
            broken = true
            backlog.removeAll()
            draining = false
        }
    }

    /// One write with its faults; false when the link is gone.
    private func write(_ bytes: [UInt8], faults: [FaultPlan.Fault]) async -> Bool {
        var payload = bytes
        for fault in faults {
            switch fault {
            case .dropLink:
                breakLink()
                await base.close()
                return false
            case .reboot:
                // The reader's state resets before its peer can see the link drop.
                breakLink()
                await onReboot()
                await base.close()
                return false
            case .stopResponding:
                return true
            case .delay(_, let duration):
                try? await clock.sleep(for: duration)
            case .corruptFrame:
                if !payload.isEmpty { payload[payload.count / 2] ^= 0x5A }
            }
        }
        do {
            try await base.send(payload)
            return true
        } catch {
            breakLink()
            return false
        }
    }

    func close() async { await base.close() }
}

/// A small lock for the transport's counters (Foundation-free, works on every platform).
final class Mutex: @unchecked Sendable {
    private let lock = NSLockShim()
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
