import EMV
import Foundation
import GRDB
import GatewayAPI
import Logging
import MPOSCore

/// Reads of the ledger, settlement batches and receipt addresses.
extension PaymentService {
    /// The merchant's open batch, opened now if there is none.
    static func openBatch(_ db: any SQLSession, merchant: String, now: Date) throws -> Int64 {
        if let id = try db.fetchValue(
            Int64.self, sql: "SELECT id FROM payment_batch WHERE merchant_id = ? AND status = 'open'",
            arguments: [merchant])
        {
            return id
        }
        let opened = try db.fetchValue(
            Int64.self,
            sql: """
                INSERT INTO payment_batch (merchant_id, status, opened_at, closed_at, transaction_count, net_amount)
                VALUES (?, 'open', ?, NULL, 0, 0) RETURNING id
                """, arguments: [merchant, now])
        guard let opened else { throw LedgerValueError(column: "batch_id", value: "none returned") }
        return opened
    }

    // MARK: Reads, batches, receipts

    /// One transaction of the merchant.
    public func transaction(merchant: String, id: String) async throws -> LedgerTransaction {
        try await database.read { db in try Self.fetchOriginal(db, merchant: merchant, id: id, locking: false) }
    }

    /// A transaction of `merchant` with its basket lines, for its receipt.
    public func receiptRecord(merchant: String, id: String) async throws -> (LedgerTransaction, [ReceiptLine])
    {
        try await database.read { db in
            let row = try Self.fetchOriginal(db, merchant: merchant, id: id, locking: false)
            return (row, try LedgerBasket.lines(transactionID: row.id, db))
        }
    }

    /// The follow-ups of a transaction, oldest first.
    public func followUps(merchant: String, id: String) async throws -> [LedgerTransaction] {
        try await database.read { db in
            try db.fetchAll(
                LedgerTransaction.self,
                sql: "SELECT * FROM payment_transaction WHERE merchant_id = ? AND original_id = ? ORDER BY seq",
                arguments: [merchant, id])
        }
    }

    /// Closes the merchant's open batch: counts its transactions and nets captured amounts,
    /// tips and refunds. Tips can no longer change and voids become reversals. Returns the
    /// closed batch, or throws ``PaymentRuleViolation/Reason/conflict`` when none is open.
    public func closeBatch(merchant: String) async throws -> LedgerBatch {
        let time = now()
        return try await writer.write { db in
            guard
                var batch = try db.fetchOne(
                    LedgerBatch.self, sql: "SELECT * FROM payment_batch WHERE merchant_id = ? AND status = 'open'",
                    arguments: [merchant])
            else { throw PaymentRuleViolation(.conflict, "There is no open batch to close.") }
            let row = try db.fetchOne(sql: """
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
            try db.update(batch, key: ["id"])
            return batch
        }
    }
}
