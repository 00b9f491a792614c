import Foundation
import GRDB

/// The sales a terminal approved offline and forwarded later: when the card approved them
/// (the terminal's `offlineStoredAt`) and when they reached the gateway, so the back office
/// can show what arrived late. One row per forwarded sale, written in the sale's own
/// transaction; sales taken online write nothing here.
enum OfflineForwards {
    /// The table (migration `payments-9-offline-forwards`).
    @Sendable static func createTable(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE payment_offline_forward (
                  transaction_id TEXT NOT NULL PRIMARY KEY REFERENCES payment_transaction(id),
                  merchant_id TEXT NOT NULL,
                  stored_at TEXT NOT NULL,
                  arrived_at TEXT NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX payment_offline_forward_merchant ON payment_offline_forward (merchant_id, arrived_at);
                """)
    }

    /// Records that `transactionID` was stored offline at `storedAt` and arrived at `arrivedAt`.
    static func record(
        _ db: any SQLSession, transactionID: String, merchant: String, storedAt: Date, arrivedAt: Date
    ) throws {
        try db.execute(
            sql: """
                INSERT INTO payment_offline_forward (transaction_id, merchant_id, stored_at, arrived_at)
                VALUES (?, ?, ?, ?)
                """, arguments: [transactionID, merchant, storedAt, arrivedAt])
    }
}
