import Foundation
import GatewayAPI
import MPOSCore

/// The sales a terminal approved offline: what is stored, and the forward to the gateway.
///
/// ```swift
/// let listing = try await terminal.offline.list()
/// let report = try await terminal.offline.forward()
/// ```
public struct OfflinePayments: Sendable {
    let terminal: PaymentTerminal

    /// The stored sales in stored order (forwarded ones with their outcome) and any damaged
    /// records.
    ///
    /// - Throws: ``MPOSError/offlineStoreFailed`` when the store or its key cannot be read.
    public func list() async throws(MPOSError) -> OfflineStoreListing {
        try await terminal.listStoredSales()
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
        try await terminal.forwardStoredSales(asOperation: true)
    }

    /// ``forward()`` with `window` forwards side by side (1: one at a time, each mark synced
    /// on its own), for the benchmark's comparison.
    @discardableResult
    package func forward(window: Int) async throws(MPOSError) -> OfflineForwardReport {
        try await terminal.forwardStoredSales(window: window, asOperation: true)
    }

    /// Stores sales the card approved offline, as ``PaymentTerminal/sale(_:)`` stores one, in one
    /// synced write and without starting the background forward: for the benchmark, which
    /// seeds thousands of TC requests made by the simulated card's kernel.
    package func store(_ sales: [(request: AuthorizeCardRequest, key: IdempotencyKey)]) async throws(MPOSError)
        -> [UUID]
    {
        try await terminal.storeOffline(sales)
    }

    /// Sets the offline limits (the gateway's policy for the merchant; 24 h by default).
    public func setPolicy(_ policy: OfflinePolicy) async {
        await terminal.setOfflinePolicy(policy)
    }
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

extension PaymentTerminal {
    func setOfflinePolicy(_ policy: OfflinePolicy) { offlineState.policy = policy }
}
