import Foundation
import GatewayAPI
import MPOSCore

// The terminal's side of store and forward: storing what the card approved offline, the
// policy check before a sale, recovery's hand-off and the listing (forwarding is in
// PaymentTerminal+OfflineForward.swift).
extension PaymentTerminal {
    /// The stored sales and the forwarding (``OfflinePayments``).
    public nonisolated var offline: OfflinePayments { OfflinePayments(terminal: self) }

    /// Stores the sale the card approved offline, synced before it returns; starts the
    /// background forward.
    func storeOffline(_ request: AuthorizeCardRequest, key: IdempotencyKey) async -> Result<UUID, MPOSError> {
        let now = Self.storedNow()
        var request = request
        request.offlineStoredAt = now
        let record = OfflineRecord(id: UUID(), key: key, storedAt: now, request: request)
        do {
            try await offlineState.store.append(record)
        } catch {
            return .failure(error)
        }
        startOfflineForwarder()
        return .success(record.id)
    }

    /// Stores `sales` in one synced write; their ids in the same order.
    func storeOffline(_ sales: [(request: AuthorizeCardRequest, key: IdempotencyKey)]) async throws(MPOSError)
        -> [UUID]
    {
        let now = Self.storedNow()
        let records = sales.map { sale in
            var request = sale.request
            request.offlineStoredAt = now
            return OfflineRecord(id: UUID(), key: sale.key, storedAt: now, request: request)
        }
        try await offlineState.store.append(contentsOf: records)
        return records.map(\.id)
    }

    /// Now, to the whole second: the times stored in the file (ISO 8601) read back equal.
    static func storedNow() -> Date {
        Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    }

    /// Why a sale with `parameters` may not be taken offline on a device in `device` (the
    /// device's offline checks, then the policy), or nil.
    func offlineRefusal(_ parameters: PaymentParameters, device: DeviceState) async -> MPOSError? {
        if let refusal = security.offlineRefusal(device) { return refusal }
        let pending: [StoredOfflinePayment]
        do {
            pending = try await offlineState.store.contents().pending.map { $0.summary(forwarded: nil) }
        } catch {
            return error
        }
        return offlineState.policy.refusal(
            amount: parameters.amount, currency: parameters.currency, pending: pending,
            lastOnline: offlineState.lastOnlineSession, now: device.date)
    }

    /// The unfinished journal entries recovery may settle: one whose key the offline store
    /// holds belongs to the store (a crash came between storing it and finishing its entry),
    /// so its entry is finished here instead of being looked up and reversed.
    func entriesNotStoredOffline(_ entries: [JournalEntry]) async throws(MPOSError) -> [JournalEntry] {
        var left: [JournalEntry] = []
        let sales = entries.filter { if case .card(.sale) = $0.operation { true } else { false } }
        // One read of the store for all of them, and none when no sale is unfinished.
        let stored = sales.isEmpty ? [] : Set(try await offlineState.store.contents().records.map(\.key))
        for var entry in entries {
            if case .card(.sale) = entry.operation, stored.contains(entry.key) {
                entry.state = .finished
                entry.outcome = .approvedOffline
                entry.updatedAt = Date()
                try await payments.journal.write(entry)
            } else {
                left.append(entry)
            }
        }
        return left
    }

    /// The stored sales, forwarded or not, in stored order, and the damaged slots.
    func listStoredSales() async throws(MPOSError) -> OfflineStoreListing {
        let contents = try await offlineState.store.contents()
        return OfflineStoreListing(
            payments: contents.records.map { $0.summary(forwarded: contents.forwarded[$0.id]) },
            damagedSlots: contents.damagedSlots)
    }
}
