import Foundation
import GRDB

/// What a card authorisation's write reads besides its claims, in one statement: the card's
/// spend today (for the issuer's decision), the merchant's open batch (for an approved row) and
/// the merchant's enabled webhook (for the outbox).
///
/// Read by ``PreparedAuthorization/record(_:idempotencyKey:)`` right after the card's counters
/// are claimed, as the spend alone was before: that claim locks the card's counter row on
/// PostgreSQL, so the spend read after it includes every committed sale of the card. One
/// statement instead of three, because on PostgreSQL each is a round trip in the group-commit
/// lane, which every sale waits for (docs/performance.md). It reads the ledger's tables only,
/// so a ledger without the gateway's accounts (``PaymentService`` on its own) can read it.
struct AuthorizationContext: Sendable {
    /// What the card has spent on the authorisation's UTC day
    /// (``PaymentService/spentSoFar(_:fingerprint:on:)``).
    var spent: Int64
    /// The merchant's open batch, nil when none is open yet (the write opens one when it needs it).
    var openBatchID: Int64?
    /// The merchant's enabled webhook, nil when it has none.
    var webhook: LedgerWebhookConfig?

    /// Reads the context of `merchant`'s authorisation with the card `fingerprint` on `date`'s
    /// UTC day in `db`'s transaction.
    ///
    /// - Throws: database errors; a stored webhook that does not decode.
    static func read(_ db: any SQLSession, merchant: String, fingerprint: String, on date: Date) throws
        -> Self
    {
        guard
            let row = try db.fetchOne(
                sql: sql, arguments: [fingerprint, PaymentService.utcDay(date), merchant, merchant])
        else { return Self(spent: 0) }
        let hasWebhook = (row["merchant_id"] as String?) != nil
        return Self(
            spent: (row["spent"] as Int64?) ?? 0, openBatchID: row["open_batch_id"] as Int64?,
            webhook: hasWebhook ? try LedgerWebhookConfig(row: row) : nil)
    }

    /// Scalar subqueries and a left join to the webhook row, written the same on both engines:
    /// always one row, whose webhook columns are NULL when the merchant has none enabled.
    private static let sql = """
        SELECT
          (SELECT spent FROM payment_card_spend WHERE card_fingerprint = ? AND day = ?) AS spent,
          (SELECT id FROM payment_batch WHERE merchant_id = ? AND status = 'open') AS open_batch_id,
          w.*
        FROM (SELECT 1 AS one) AS one
        LEFT JOIN payment_webhook_config AS w ON w.merchant_id = ? AND w.enabled = 1
        """
}
