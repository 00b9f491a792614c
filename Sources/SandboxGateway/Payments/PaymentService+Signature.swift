import Foundation
import GRDB
import GatewayAPI
import MPOSCore

/// The cardholder's signature images, one per approved transaction.
extension PaymentService {
    /// The largest image stored; a pad signature is a few tens of kilobytes.
    public static let maximumSignatureSize = 48 * 1024

    @Sendable static func createSignatureTable(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE payment_signature (
                  transaction_id TEXT NOT NULL PRIMARY KEY,
                  png BLOB NOT NULL
                ) WITHOUT ROWID;
                """)
    }

    /// Stores (or replaces) the signature of `merchant`'s approved transaction `id`.
    ///
    /// - Throws: ``PaymentRuleViolation`` not found for an unknown transaction, conflict for
    ///   one that is not approved.
    public func storeSignature(merchant: String, id: String, png: Data) async throws {
        try await writer.write { db in
            let row = try Self.fetchOriginal(db, merchant: merchant, id: id)
            guard row.status == .approved else {
                throw PaymentRuleViolation(.conflict, "Transaction \(id.prefix(64)) is not approved: it has no signature to keep.")
            }
            try db.execute(
                sql: """
                    INSERT INTO payment_signature (transaction_id, png) VALUES (?, ?)
                    ON CONFLICT(transaction_id) DO UPDATE SET png = excluded.png
                    """,
                arguments: [id, png])
        }
    }

    /// The signature of `merchant`'s transaction `id`, or nil when none was stored.
    ///
    /// - Throws: ``PaymentRuleViolation`` not found for an unknown transaction.
    public func signature(merchant: String, id: String) async throws -> Data? {
        try await database.read { db in
            _ = try Self.fetchOriginal(db, merchant: merchant, id: id, locking: false)
            return try db.fetchValue(Data.self, sql: "SELECT png FROM payment_signature WHERE transaction_id = ?", arguments: [id])
        }
    }
}
