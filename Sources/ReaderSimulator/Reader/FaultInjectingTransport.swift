import ReaderLink

/// Wraps the reader's side of a link and applies a `FaultPlan` to the reader's writes: the Nth
/// write (counting from 1 over the link's life) can drop the link, be delayed, arrive with a
/// flipped byte, or be the first of many that never arrive. `reboot` faults are reported to
/// the reader through `onReboot` and drop the link.
final class FaultInjectingTransport: ReaderTransport, @unchecked Sendable {
    // @unchecked: `writes` and `plan` are only touched under `lock`.
    private let base: any ReaderTransport
    private let clock: any Clock<Duration>
    private let lock = Mutex()
    private var writes = 0
    private var plan: FaultPlan
    private let onReboot: @Sendable () async -> Void

    init(
        _ base: any ReaderTransport, plan: FaultPlan, clock: any Clock<Duration>,
        onReboot: @escaping @Sendable () async -> Void
    ) {
        self.base = base
        self.plan = plan
        self.clock = clock
        self.onReboot = onReboot
    }

    var maximumWriteLength: Int? { base.maximumWriteLength }
    var incoming: AsyncStream<[UInt8]> { base.incoming }

    /// Replaces the plan; the write count carries on.
    func replacePlan(_ newPlan: FaultPlan) {
        lock.withLock { plan = newPlan }
    }

    /// The number of writes so far.
    var writeCount: Int { lock.withLock { writes } }

    func send(_ bytes: [UInt8]) async throws(ReaderLinkError) {
        let faults: [FaultPlan.Fault] = lock.withLock {
            writes += 1
            return plan.faults(forMessage: writes)
        }
        var payload = bytes
        for fault in faults {
            switch fault {
            case .dropLink:
                await base.close()
                throw .linkClosed
            case .reboot:
                await base.close()
                await onReboot()
                throw .linkClosed
            case .stopResponding:
                return
            case .delay(_, let duration):
                try? await clock.sleep(for: duration)
            case .corruptFrame:
                if !payload.isEmpty { payload[payload.count / 2] ^= 0x5A }
            }
        }
        try await base.send(payload)
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
