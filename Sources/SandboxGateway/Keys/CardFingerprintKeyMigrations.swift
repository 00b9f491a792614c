import GRDB

/// The migration that takes the card-fingerprint key out of the database, on both engines.
///
/// Older databases kept the key in `payment_secret`, beside the fingerprints and the masked
/// card numbers, from which it rebuilt every card number. The table is dropped (the key was
/// moved to a key file first, see ``CardFingerprintKeyCheck``) and `payment_fingerprint_key`
/// records the id of the key the fingerprints are made with: one-way, it tells a wrong key
/// from the right one and rebuilds nothing.
enum CardFingerprintKeyMigrations {
    /// SQLite's `payments-11-fingerprint-key-apart`.
    @Sendable static func sqlite(_ db: Database) throws {
        // The key's bytes are overwritten, not left in a free page of the file.
        try db.execute(sql: "PRAGMA secure_delete = ON")
        try db.execute(sql: "DELETE FROM payment_secret")
        try db.execute(sql: "DROP TABLE payment_secret")
        try db.execute(sql: createTable(integer: "INTEGER"))
    }

    /// PostgreSQL's `payments-3-fingerprint-key-apart`.
    static let postgres = PostgresMigration(
        "payments-3-fingerprint-key-apart",
        sql: ["DROP TABLE payment_secret", createTable(integer: "BIGINT")])

    private static func createTable(integer: String) -> String {
        """
        CREATE TABLE payment_fingerprint_key (
          id \(integer) NOT NULL PRIMARY KEY CHECK (id = 1),
          key_id TEXT NOT NULL
        )
        """
    }
}
