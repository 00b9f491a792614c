import Foundation
import GRDB
import MPOSTestSupport
import SandboxGateway

extension PostgresGatewayBenchmarks {
    /// The tables a card sale cannot do without, copied into a schema of their own with their
    /// columns, defaults, checks, indexes and foreign keys but without the gateway's triggers,
    /// so that the yardstick writes the card's spend itself and nothing else.
    static let minimalSaleTables = [
        "idempotencykey", "payment_ksn_seen", "payment_card_counter", "payment_transaction",
        "payment_card_spend",
    ]

    /// What a card sale cannot do without, as a pgbench script, one transaction per sale: the
    /// idempotency claim, the replay guard's two claims (the KSN seen, the card's ATC), the
    /// ledger row and the card's spend. Ids come from a sequence and each client has a card of
    /// its own, so no row is shared between concurrent sales.
    static let minimalSaleScript = """
        SELECT nextval('mpos_raw_sale') AS id \\gset
        BEGIN;
        INSERT INTO minimal_sale.idempotencyKey (merchantId, key, requestSHA256, state, createdAt) VALUES (:merchant, 'min-' || CAST(:id AS TEXT), :hash, 'inProgress', :now) ON CONFLICT DO NOTHING;
        INSERT INTO minimal_sale.payment_ksn_seen (ksn) VALUES (int8send(CAST(:id AS BIGINT))) ON CONFLICT DO NOTHING;
        INSERT INTO minimal_sale.payment_card_counter (card_fingerprint, psn, transaction_date, highest_atc) VALUES ('min-card-' || CAST(:client_id AS TEXT), 1, '261129', CAST(:id AS BIGINT)) ON CONFLICT (card_fingerprint, psn, transaction_date) DO UPDATE SET highest_atc = excluded.highest_atc WHERE minimal_sale.payment_card_counter.highest_atc < excluded.highest_atc;
        INSERT INTO minimal_sale.payment_transaction (id, merchant_id, kind, status, original_id, amount_requested, amount_approved, amount_captured, amount_refunded, amount_tip, amount_major, currency, response_code, auth_code, acquirer_message, batch_id, card_fingerprint, masked_pan, brand, expiry, cardholder_name, entry_mode, cvm, aid, application_label, tvr, tsi, issuer_authentication_data, customer_reference, external_id, descriptor, capture_mode, allow_partial, created_at, updated_at) VALUES ('min_' || CAST(:id AS TEXT), :merchant, 'sale', 'approved', NULL, 1234, 1234, 1234, 0, 0, 12, 'EUR', '00', 'ZY6X6P', 'Approved', CAST(:batch AS BIGINT), 'min-card-' || CAST(:client_id AS TEXT), '411111******1111', 'visa', '4912', 'CREDIT/VISA', 'chip', 'pin', 'A0000000031010', 'VISA CREDIT', '8000040000', '6800', '8551452480000000', NULL, NULL, NULL, 'completedSale', 0, :now, :now);
        INSERT INTO minimal_sale.payment_card_spend (card_fingerprint, day, spent) VALUES ('min-card-' || CAST(:client_id AS TEXT), :day, 1234) ON CONFLICT (card_fingerprint, day) DO UPDATE SET spent = minimal_sale.payment_card_spend.spent + excluded.spent;
        END;

        """

    /// Runs ``minimalSaleScript`` with pgbench on `database`'s server and returns its sales
    /// per second. Runs after ``rawWrites(bin:server:database:merchant:round:)``, whose first
    /// round made the sequence and the open batch; the first round here makes the schema.
    static func minimalSales(
        bin: String, server: LocalPostgres, database: any GatewayDatabase, merchant: String
    ) async throws -> Double {
        let batch = try await database.write { db in
            let batch =
                try db.fetchValue(
                    Int64.self,
                    sql:
                        "SELECT id FROM payment_batch WHERE merchant_id = ? AND status = 'open' ORDER BY id LIMIT 1",
                    arguments: [merchant]) ?? 0
            guard
                try db.fetchAll(sql: "SELECT 1 AS made FROM pg_namespace WHERE nspname = 'minimal_sale'")
                    .isEmpty
            else {
                return batch
            }
            try db.execute(sql: "CREATE SCHEMA minimal_sale")
            for table in minimalSaleTables {
                try db.execute(sql: "CREATE TABLE minimal_sale.\(table) (LIKE public.\(table) INCLUDING ALL)")
                let keys = try db.fetchAll(
                    sql: """
                        SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint
                        WHERE conrelid = CAST(? AS regclass) AND contype = 'f'
                        """, arguments: ["public.\(table)"])
                for key in keys {
                    let definition: String = key["definition"]
                    try db.execute(sql: "ALTER TABLE minimal_sale.\(table) ADD \(definition)")
                }
            }
            return batch
        }
        let now = timestamp(Date())
        return try pgbench(
            script: minimalSaleScript, bin: bin, server: server,
            defines: [
                "merchant": merchant, "hash": String(repeating: "ab", count: 32), "now": now,
                "day": String(now.prefix(10)), "batch": "\(batch)",
            ])
    }
}
