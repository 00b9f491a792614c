import Foundation

/// The offline part's state: the store of sales approved offline, the limits in force, the
/// last online session and the forwarding running.
struct OfflineState: Sendable {
    /// Sales the card approved offline, to forward (next to the journal: `<journal>.offline`).
    let store: OfflineStore
    /// The offline limits in force (see ``OfflinePayments/setPolicy(_:)``).
    var policy = OfflinePolicy.standard
    /// How long forwarded sales stay in the store (and in ``OfflinePayments/list()``) before a
    /// compaction drops them.
    var forwardedSalesKeptFor: TimeInterval = 7 * 86_400
    /// When the gateway last answered a login: the policy's offline window runs from it.
    var lastOnlineSession: Date?
    /// The background forward waiting for the gateway, if one runs.
    var forwarder: Task<Void, Never>?
    /// The forward pass running now, if one does.
    var forwardingPass: Task<Result<OfflineForwardReport, MPOSError>, Never>?

    init(store: OfflineStore) { self.store = store }
}
