import Foundation
import GRDB
import GatewayAPI

/// The idempotency key each ledger row was made under, and the attempt lookup's answer from
/// it once the key's stored answer has expired.
///
/// The `idempotencyKey` table keeps a request's answer byte for byte for 24 hours, and is then
/// purged. A payment lives on in the ledger: a terminal switched off over a weekend with an
/// unfinished sale asks for its attempt days later, and must learn that the card was charged,
/// not "not found". So the row keeps its key, and a lookup the answer cache no longer holds is
/// answered with the row's state now.
enum LedgerAttempts {
    /// The key column and its index, one row per merchant and key: a request makes one row,
    /// and a resend of a forgotten key cannot make a second one.
    private static let statements = [
        "ALTER TABLE payment_transaction ADD COLUMN idempotency_key TEXT",
        """
        CREATE UNIQUE INDEX payment_transaction_attempt ON payment_transaction (merchant_id, idempotency_key)
        WHERE idempotency_key IS NOT NULL
        """,
    ]

    /// SQLite's `payments-12-attempt-keys`.
    @Sendable static func sqlite(_ db: Database) throws {
        for statement in statements { try db.execute(sql: statement) }
    }

    /// PostgreSQL's `payments-4-attempt-keys`.
    static let postgres = PostgresMigration("payments-4-attempt-keys", sql: statements)

    /// The acquirer message of a reversal's row, which tells it from a void of the same kind.
    static let reversedMessage = "Reversed"

    /// What the request made under `key` answers now, from the ledger: the row it made, or the
    /// original for a tip adjustment or a reversal (the rows those routes answer with), 202
    /// while pending and 200 otherwise; `nil` when no row was made under the key (a refused
    /// request, or none at all).
    static func answer(_ db: any SQLSession, merchant: String, key: String) throws -> (status: Int, data: Data)? {
        guard
            var row = try db.fetchOne(
                LedgerTransaction.self,
                sql: "SELECT * FROM payment_transaction WHERE merchant_id = ? AND idempotency_key = ?",
                arguments: [merchant, key])
        else { return nil }
        let answersOriginal =
            row.kind == .tipAdjustment
            || ((row.kind == .saleVoid || row.kind == .refundVoid) && row.acquirerMessage == reversedMessage)
        if answersOriginal, let originalID = row.originalId,
            let original = try db.fetchOne(
                LedgerTransaction.self,
                sql: "SELECT * FROM payment_transaction WHERE merchant_id = ? AND id = ?",
                arguments: [merchant, originalID])
        {
            row = original
        }
        let status = row.status == .pending ? 202 : 200
        return (status, try GatewayResponse.jsonData(row.apiTransaction))
    }
}
