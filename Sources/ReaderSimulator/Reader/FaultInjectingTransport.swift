import MPOSCore
import ReaderLink
import Synchronization

/// Wraps the reader's side of a link and applies a `FaultPlan` to the reader's writes: the Nth
/// write (counting from 1 over the link's life) can drop the link, be delayed, arrive with a
/// flipped byte, or be the first of many that never arrive. `reboot` faults are reported to
/// the reader through `onReboot` and drop the link.
///
/// ReaderLink sends one write at a time, in order, so a delayed write holds back the writes
/// after it, as on a real link.
final class FaultInjectingTransport: ReaderTransport {
    private struct State {
        var writes = 0
        var plan: FaultPlan
        var broken = false
    }

    private let base: any ReaderTransport
    private let clock: any Clock<Duration>
    private let state: Mutex<State>
    private let onReboot: @Sendable () async -> Void

    init(
        _ base: any ReaderTransport, plan: FaultPlan, clock: any Clock<Duration>,
        onReboot: @escaping @Sendable () async -> Void
    ) {
        self.base = base
        self.state = Mutex(State(plan: plan))
        self.clock = clock
        self.onReboot = onReboot
    }

    var maximumWriteLength: Int? { base.maximumWriteLength }
    var incoming: AsyncStream<[UInt8]> { base.incoming }

    /// Replaces the plan; the write count carries on.
    func replacePlan(_ newPlan: FaultPlan) {
        state.withLock { $0.plan = newPlan }
    }

    /// The number of writes so far.
    var writeCount: Int { state.withLock { $0.writes } }

    /// Counts the write, applies its faults, and passes it on unless a fault swallows it.
    /// Throws `.linkClosed` once a fault dropped the link.
    func send(_ bytes: [UInt8]) async throws(ReaderLinkError) {
        let faults: [FaultPlan.Fault]? = state.withLock { state in
            if state.broken { return nil }
            state.writes += 1
            return state.plan.faults(forMessage: state.writes)
        }
        guard let faults else { throw .linkClosed }
        var payload = bytes
        for fault in faults {
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
        do {
            try await base.send(payload)
        } catch {
            breakLink()
            throw error
        }
    }

    /// Refuses every later write: the link is going.
    private func breakLink() {
        state.withLock { $0.broken = true }
    }

    func close() async { await base.close() }
}
