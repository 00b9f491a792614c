import Foundation
import GRDB

/// The payment ledger's tables, as GRDB migrations the gateway core runs with its own.
///
/// No column holds a full card number, track data or a CVV: cards are recognised by a keyed
/// fingerprint (``CardFingerprinter``) and shown by their masked number.
public enum LedgerSchema {
    /// Registers the ledger's tables alone, for tests that run without the gateway core.
    public static func register(in migrator: inout DatabaseMigrator) {
        // The gateway's own lists, so a ledger made this way has every table the gateway's has.
        for migration in GatewayMigrations.payments + GatewayMigrations.reporting {
            migrator.registerMigration(migration.name, migrate: migration.migrate)
        }
    }

    /// The payments tables: secret, batches, transactions, SEPA mandates, webhook
    /// configuration and delivery log.
    @Sendable static func createV1(_ db: Database) throws {
        // The key of card fingerprints as the first versions kept it; `payments-11` takes it
        // out of the database (CardFingerprintKeyMigrations).
        try db.create(table: "payment_secret") { t in
            t.column("name", .text).primaryKey()
            t.column("value", .blob).notNull()
        }
        try db.execute(
            sql: "INSERT INTO payment_secret (name, value) VALUES ('card_fingerprint', ?)",
            arguments: [Data(CardFingerprintKey.random().bytes)])
        try db.create(table: "payment_batch") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("merchant_id", .text).notNull()
            t.column("status", .text).notNull()  // open | closed
            t.column("opened_at", .datetime).notNull()
            t.column("closed_at", .datetime)
            t.column("transaction_count", .integer).notNull().defaults(to: 0)
            t.column("net_amount", .integer).notNull().defaults(to: 0)
        }
        try db.create(
            index: "payment_batch_open", on: "payment_batch", columns: ["merchant_id"], unique: true,
            condition: Column("status") == "open")

        try db.create(table: "payment_transaction") { t in
            t.autoIncrementedPrimaryKey("seq")
            t.column("id", .text).notNull().unique()
            t.column("merchant_id", .text).notNull()
            t.column("kind", .text).notNull()
            t.column("status", .text).notNull()
            t.column("original_id", .text)
            t.column("amount_requested", .integer).notNull()
            t.column("amount_approved", .integer).notNull().defaults(to: 0)
            t.column("amount_captured", .integer).notNull().defaults(to: 0)
            t.column("amount_refunded", .integer).notNull().defaults(to: 0)
            t.column("amount_tip", .integer).notNull().defaults(to: 0)
            // The requested amount in whole major units, for "amount without decimals" search.
            t.column("amount_major", .integer).notNull()
            t.column("currency", .text).notNull()
            t.column("response_code", .text)
            t.column("auth_code", .text)
            t.column("acquirer_message", .text)
            t.column("batch_id", .integer).references("payment_batch")
            t.column("card_fingerprint", .text)
            t.column("masked_pan", .text)
            t.column("brand", .text)
            t.column("expiry", .text)
            t.column("cardholder_name", .text)
            t.column("entry_mode", .text)
            t.column("cvm", .text)
            t.column("aid", .text)
            t.column("application_label", .text)
            t.column("tvr", .text)
            t.column("tsi", .text)
            t.column("issuer_authentication_data", .text)
            t.column("customer_reference", .text)
            t.column("external_id", .text)
            t.column("descriptor", .text)
            t.column("capture_mode", .text)
            t.column("allow_partial", .boolean).notNull().defaults(to: false)
            t.column("created_at", .datetime).notNull()
            t.column("updated_at", .datetime).notNull()
        }
        try db.create(
            index: "payment_transaction_merchant_time", on: "payment_transaction",
            columns: ["merchant_id", "created_at"])
        try db.create(
            index: "payment_transaction_fingerprint", on: "payment_transaction",
            columns: ["merchant_id", "card_fingerprint", "created_at"])
        try db.create(
            index: "payment_transaction_original", on: "payment_transaction", columns: ["original_id"])
        try db.create(index: "payment_transaction_batch", on: "payment_transaction", columns: ["batch_id"])

        // A SEPA direct debit's mandate: the card identified the account; no IBAN is kept.
        try db.create(table: "payment_sepa") { t in
            t.column("transaction_id", .text).primaryKey().references("payment_transaction", column: "id")
            t.column("mandate_reference", .text).notNull()
            t.column("signed_at", .datetime).notNull()
        }
        try db.create(table: "payment_webhook_config") { t in
            t.column("merchant_id", .text).primaryKey()
            t.column("url", .text).notNull()
            t.column("secret", .text).notNull()
            t.column("enabled", .boolean).notNull()
            t.column("updated_at", .datetime).notNull()
        }
        try db.create(table: "payment_webhook_delivery") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("merchant_id", .text).notNull()
            t.column("event_id", .text).notNull()
            t.column("transaction_id", .text).notNull()
            t.column("url", .text).notNull()
            t.column("attempt", .integer).notNull()
            t.column("status_code", .integer)
            t.column("error", .text)
            t.column("succeeded", .boolean).notNull()
            t.column("attempted_at", .datetime).notNull()
            t.column("next_attempt_at", .datetime)
        }
        try db.create(
            index: "payment_webhook_delivery_merchant", on: "payment_webhook_delivery",
            columns: ["merchant_id", "id"])
    }

    /// An index for the issuer's spend-so-far query, which looks a card up across merchants:
    /// without it every authorisation scanned the whole ledger.
    @Sendable static func indexCardSpend(_ db: Database) throws {
        try db.create(
            index: "payment_transaction_card_spend", on: "payment_transaction",
            columns: ["card_fingerprint", "kind", "status"])
    }

    /// Fewer b-trees to change per ledger row: each index is one more page in the write-ahead
    /// log of every authorisation's commit, and the commit's fsync grows with the pages.
    /// - The card-spend index served the summing query that `payment_card_spend` replaced
    ///   (``createCardSpend(_:)``); nothing reads through it any more.
    /// - Only refunds and voids have an original transaction: a partial index leaves the
    ///   other rows out, and `original_id = ?` (which implies `IS NOT NULL`) still uses it.
    @Sendable static func trimIndexes(_ db: Database) throws {
        try db.drop(index: "payment_transaction_card_spend")
        try db.drop(index: "payment_transaction_original")
        try db.create(
            index: "payment_transaction_original", on: "payment_transaction", columns: ["original_id"],
            condition: Column("original_id") != nil)
    }

    /// What a ledger row adds to its card's spend: approved sales and authorisations not
    /// reversed, with tips, less refunds (SQL over `row`, `NEW` or `OLD`).
    static func spendContribution(_ row: String) -> String {
        "\(row).amount_approved + \(row).amount_tip - \(row).amount_refunded"
    }

    /// Whether a ledger row counts towards its card's spend (SQL over `row`).
    static func countsTowardsSpend(_ row: String) -> String {
        """
        \(row).card_fingerprint IS NOT NULL AND \(row).kind IN ('sale', 'authorization', 'preAuthorization') \
        AND \(row).status IN ('approved', 'partiallyApproved', 'refunded')
        """
    }

    /// Each card's spend so far in `payment_card_spend`, kept by triggers on every insert,
    /// update and delete of a ledger row, so the issuer's decision (inside every
    /// authorisation's write) reads one row instead of summing the card's whole history.
    /// Filled from the existing ledger.
    @Sendable static func createCardSpend(_ db: Database) throws {
        // The trigger bodies: the new row's contribution added, the old row's taken away.
        let addSpend = """
            BEGIN
              INSERT INTO payment_card_spend (card_fingerprint, spent)
              VALUES (NEW.card_fingerprint, \(spendContribution("NEW")))
              ON CONFLICT (card_fingerprint) DO UPDATE SET spent = spent + excluded.spent;
            END;
            """
        let removeSpend = """
            BEGIN
              UPDATE payment_card_spend SET spent = spent - (\(spendContribution("OLD")))
              WHERE card_fingerprint = OLD.card_fingerprint;
            END;
            """
        try db.execute(
            sql: """
                CREATE TABLE payment_card_spend (
                  card_fingerprint TEXT NOT NULL PRIMARY KEY,
                  spent INTEGER NOT NULL
                ) WITHOUT ROWID;
                INSERT INTO payment_card_spend (card_fingerprint, spent)
                  SELECT card_fingerprint, SUM(\(spendContribution("t"))) FROM payment_transaction AS t
                  WHERE \(countsTowardsSpend("t")) GROUP BY card_fingerprint;
                \(spendTriggers(add: addSpend, remove: removeSpend))
                """)
    }

    /// The four triggers that keep `payment_card_spend`: a ledger row's contribution added
    /// (`add`, over `NEW`) when it starts counting and taken away (`remove`, over `OLD`) when
    /// it stops, on insert, update and delete.
    static func spendTriggers(add: String, remove: String) -> String {
        """
        CREATE TRIGGER payment_card_spend_insert AFTER INSERT ON payment_transaction
        WHEN \(countsTowardsSpend("NEW"))
        \(add)
        CREATE TRIGGER payment_card_spend_update_old AFTER UPDATE ON payment_transaction
        WHEN \(countsTowardsSpend("OLD"))
        \(remove)
        CREATE TRIGGER payment_card_spend_update_new AFTER UPDATE ON payment_transaction
        WHEN \(countsTowardsSpend("NEW"))
        \(add)
        CREATE TRIGGER payment_card_spend_delete AFTER DELETE ON payment_transaction
        WHEN \(countsTowardsSpend("OLD"))
        \(remove)
        """
    }

    /// The UTC day a ledger row's spend counts on (SQL over `row`): its creation date, which
    /// the gateway writes in UTC as `YYYY-MM-DD HH:MM:SS.SSS`.
    static func spendDay(_ row: String) -> String { "substr(\(row).created_at, 1, 10)" }

    /// Each card's spend per UTC day instead of for ever: a shared sandbox that runs
    /// integration tests for weeks would otherwise run its test cards dry. The balance
    /// scenarios (a card's balance, the amounts that play a low one) hold within a day.
    @Sendable static func spendByDay(_ db: Database) throws {
        let addSpend = """
            BEGIN
              INSERT INTO payment_card_spend (card_fingerprint, day, spent)
              VALUES (NEW.card_fingerprint, \(spendDay("NEW")), \(spendContribution("NEW")))
              ON CONFLICT (card_fingerprint, day) DO UPDATE SET spent = spent + excluded.spent;
            END;
            """
        let removeSpend = """
            BEGIN
              UPDATE payment_card_spend SET spent = spent - (\(spendContribution("OLD")))
              WHERE card_fingerprint = OLD.card_fingerprint AND day = \(spendDay("OLD"));
            END;
            """
        try db.execute(
            sql: """
                DROP TRIGGER payment_card_spend_insert;
                DROP TRIGGER payment_card_spend_update_old;
                DROP TRIGGER payment_card_spend_update_new;
                DROP TRIGGER payment_card_spend_delete;
                DROP TABLE payment_card_spend;
                CREATE TABLE payment_card_spend (
                  card_fingerprint TEXT NOT NULL,
                  day TEXT NOT NULL,
                  spent INTEGER NOT NULL,
                  PRIMARY KEY (card_fingerprint, day)
                ) WITHOUT ROWID;
                INSERT INTO payment_card_spend (card_fingerprint, day, spent)
                  SELECT card_fingerprint, \(spendDay("t")), SUM(\(spendContribution("t"))) FROM payment_transaction AS t
                  WHERE \(countsTowardsSpend("t")) GROUP BY card_fingerprint, \(spendDay("t"));
                \(spendTriggers(add: addSpend, remove: removeSpend))
                """)
    }

    /// The reporting domain's inventory versions.
    @Sendable static func createInventory(_ db: Database) throws {
        try db.create(table: "payment_inventory") { t in
            t.column("merchant_id", .text).notNull()
            t.column("version", .integer).notNull()
            t.column("content", .blob).notNull()
            t.column("sha256", .text).notNull()
            t.column("columns", .text).notNull()
            t.column("row_count", .integer).notNull()
            t.column("uploaded_at", .datetime).notNull()
            t.primaryKey(["merchant_id", "version"])
        }
    }
}
