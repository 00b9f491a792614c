import Foundation
import GatewayAPI
import MPOSCore

/// The sales a terminal approved offline: what is stored, and the forward to the gateway.
///
/// ```swift
/// let listing = try await terminal.offline.list()
/// let report = try await terminal.offline.forward()
/// ```
///
/// It owns the store, the limits in force, when the terminal was last online and the
/// forwarding (one pass at a time, a background forward that waits for the gateway).
public actor OfflinePayments {
    /// The encrypted store beside the journal.
    let store: OfflineStore
    /// The offline limits in force (the gateway's policy for the merchant, or the standard one).
    var policy = OfflinePolicy.standard
    /// How long forwarded sales stay in the store before a compaction may drop them.
    var forwardedSalesKeptFor: TimeInterval = 7 * 86_400
    /// When the terminal was last online (the offline window's start), on the device's clock.
    var lastOnlineSession: Date?
    /// The background forward's rules and where they stand.
    var forwarderMachine = OfflineForwarderMachine()
    /// The background forward's pass or pause under way.
    var forwarderStep: Task<Void, Never>?
    /// What the session allows a forward, as the facade last said.
    var session = ForwardingSession.gateway
    /// The forward pass running, shared with callers that arrive meanwhile.
    var forwardingPass: Task<Result<OfflineForwardReport, MPOSError>, Never>?
    let client: GatewayClient
    let gate: OperationGate
    let events: TerminalEvents
    let clock: any Clock<Duration>

    init(store: OfflineStore, client: GatewayClient, gate: OperationGate, events: TerminalEvents, clock: any Clock<Duration>) {
        self.store = store
        self.client = client
        self.gate = gate
        self.events = events
        self.clock = clock
    }

    deinit { forwarderStep?.cancel() }

    /// The stored sales in stored order (forwarded ones with their outcome) and any damaged
    /// records.
    ///
    /// - Throws: ``MPOSError/offlineStoreFailed`` when the store or its key cannot be read.
    public func list() async throws(MPOSError) -> OfflineStoreListing {
        let contents = try await store.contents()
        return OfflineStoreListing(
            payments: contents.records.map { $0.summary(forwarded: contents.forwarded[$0.id]) },
            damagedSlots: contents.damagedSlots)
    }

    /// Forwards now what waits, up to 32 side by side, started in stored order and one card's
    /// sales strictly in that order (the terminal also does so by itself when the gateway
    /// answers again); each under the key fixed when it was stored. Damaged records are reported
    /// (``TerminalEvent/offlineDataTampering(slots:)``), never forwarded.
    ///
    /// - Throws: ``MPOSError/notLoggedIn``, ``MPOSError/gatewayUnreachable`` (what is left
    ///   stays stored), ``MPOSError/offlineStoreFailed``.
    @discardableResult
    public func forward() async throws(MPOSError) -> OfflineForwardReport {
        try await forwardStoredSales(asOperation: true)
    }

    /// ``forward()`` with `window` forwards side by side (1: one at a time, each mark synced
    /// on its own), for the benchmark's comparison.
    @discardableResult
    package func forward(window: Int) async throws(MPOSError) -> OfflineForwardReport {
        try await forwardStoredSales(window: window, asOperation: true)
    }

    /// Stores sales the card approved offline, as ``PaymentTerminal/sale(_:)`` stores one, in one
    /// synced write and without starting the background forward: for the benchmark, which
    /// seeds thousands of TC requests made by the simulated card's kernel.
    package func storeApproved(_ sales: [(request: AuthorizeCardRequest, key: IdempotencyKey)]) async throws(MPOSError)
        -> [UUID]
    {
        let now = Self.storedNow()
        let records = sales.map { sale in
            var request = sale.request
            request.offlineStoredAt = now
            return OfflineRecord(id: UUID(), key: sale.key, storedAt: now, request: request)
        }
        try await store.append(contentsOf: records)
        return records.map(\.id)
    }

    /// Sets the offline limits (the gateway's policy for the merchant; 24 h by default).
    public func setPolicy(_ policy: OfflinePolicy) { self.policy = policy }

    /// The facade says what the session now allows a forward (a journal refused or accepted
    /// at login, a reset); coming up offline-only and going online are said by
    /// ``adopt(_:)`` and ``wentOnline(at:)``.
    func setSession(_ session: ForwardingSession) { self.session = session }
}

/// What the terminal's session allows a forward, as the facade tells ``OfflinePayments``.
enum ForwardingSession: Sendable {
    /// The gateway's session, while the client holds one.
    case gateway
    /// Up offline-only on a cached session: nothing is forwarded until a login reaches the gateway.
    case offlineOnly
    /// The journal belongs to another gateway or merchant: nothing is sent for this one.
    case journalRefused(MPOSError)
}

/// What ``OfflinePayments/list()`` found.
public struct OfflineStoreListing: Sendable, Hashable {
    /// The intact stored sales, in stored order.
    public var payments: [StoredOfflinePayment]
    /// Slots that failed their check (``MPOSError/offlineDataTampering``); never forwarded.
    public var damagedSlots: [Int]
}

/// What one ``OfflinePayments/forward()`` did.
public struct OfflineForwardReport: Sendable, Hashable {
    /// Slots that failed their check and were not forwarded.
    public var damagedSlots: [Int]
    /// The outcomes reached, in stored order.
    public var outcomes: [OfflineForwardOutcome] = []
}
