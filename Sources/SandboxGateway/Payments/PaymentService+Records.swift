import EMV
import Foundation
import GRDB
import GatewayAPI
import Logging
import MPOSCore

/// Reads of the ledger, settlement batches and receipt addresses.
extension PaymentService {
    /// The merchant's open batch, opened now if there is none.
    static func openBatch(_ db: Database, merchant: String, now: Date) throws -> Int64 {
        let open = try db.cachedStatement(
            sql: "SELECT id FROM payment_batch WHERE merchant_id = ? AND status = 'open'")
        if let id = try Int64.fetchOne(open, arguments: [merchant]) {
            return id
        }
        var batch = LedgerBatch(
            id: nil, merchantId: merchant, status: "open", openedAt: now, closedAt: nil, transactionCount: 0,
            netAmount: 0)
        try batch.insert(db)
        return batch.id!
    }

    // MARK: Reads, batches, receipts

    /// One transaction of the merchant.
    public func transaction(merchant: String, id: String) async throws -> LedgerTransaction {
        try await database.read { db in try Self.fetchOriginal(db, merchant: merchant, id: id) }
    }

    /// A transaction of `merchant` with its basket lines, for its receipt.
    public func receiptRecord(merchant: String, id: String) async throws -> (LedgerTransaction, [ReceiptLine])
    {
        try await database.read { db in
            let row = try Self.fetchOriginal(db, merchant: merchant, id: id)
            return (row, try LedgerBasket.lines(transactionID: row.id, db))
        }
    }

    /// The follow-ups of a transaction, oldest first.
    public func followUps(merchant: String, id: String) async throws -> [LedgerTransaction] {
        try await database.read { db in
            try LedgerTransaction.filter(Column("merchant_id") == merchant && Column("original_id") == id)
                .order(Column("seq")).fetchAll(db)
        }
    }

    /// Closes the merchant's open batch: counts its transactions and nets captured amounts,
    /// tips and refunds. Tips can no longer change and voids become reversals. Returns the
    /// closed batch, or throws ``PaymentRuleViolation/Reason/conflict`` when none is open.
    public func closeBatch(merchant: String) async throws -> LedgerBatch {
        let time = now()
        return try await writer.write { db in
            guard
                var batch = try LedgerBatch.filter(
                    Column("merchant_id") == merchant && Column("status") == "open"
                )
                .fetchOne(db)
            else { throw PaymentRuleViolation(.conflict, "There is no open batch to close.") }
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) AS n,
                      COALESCE(SUM(CASE WHEN kind = 'refund' THEN -amount_captured
                                        WHEN kind IN ('sale','capture','cash','sepa') THEN amount_captured + amount_tip
                                        ELSE 0 END), 0) AS net
                    FROM payment_transaction
                    WHERE batch_id = ? AND status IN ('approved','partiallyApproved','refunded')
                    """, arguments: [batch.id])!
            batch.transactionCount = row["n"]
            batch.netAmount = row["net"]
            batch.status = "closed"
            batch.closedAt = time
            try batch.update(db)
            return batch
        }
    }
}
