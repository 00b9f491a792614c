import Foundation
import MPOSCore

/// What the journal answers the terminal's follow-ups and recovery about its entries.
extension PaymentJournal {
    /// The journal's unfinished `operation` on `original` for `amount`, left by a call that
    /// could not learn its outcome.
    func unfinishedFollowUp(_ operation: FollowUpOperation, of original: TransactionID, amount: Int64?) throws(MPOSError)
        -> JournalEntry?
    {
        try unfinished().first {
            $0.operation == .followUp(operation) && $0.originalTransactionID == original && $0.amount == amount
                && $0.state == .authorizing
        }
    }

    /// `entries` but the sales the offline store holds (`storedOffline`, read only when a sale
    /// is among them): those are the store's now, and are finished here as approved offline.
    func handingOver(
        _ entries: [JournalEntry], storedOffline: @Sendable () async throws(MPOSError) -> Set<IdempotencyKey>
    ) async throws(MPOSError) -> [JournalEntry] {
        var left: [JournalEntry] = []
        let sales = entries.filter { if case .card(.sale) = $0.operation { true } else { false } }
        // One read of the store for all of them, and none when no sale is unfinished.
        let stored = sales.isEmpty ? [] : try await storedOffline()
        for var entry in entries {
            if case .card(.sale) = entry.operation, stored.contains(entry.key) {
                entry.state = .finished
                entry.outcome = .approvedOffline
                entry.updatedAt = Date()
                try await write(entry)
            } else {
                left.append(entry)
            }
        }
        return left
    }
}
