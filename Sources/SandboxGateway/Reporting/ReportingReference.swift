import Foundation
import GRDB

/// The reports' answers in hand-written SQL, with no service, mapping or decoding around
/// them: the yardstick ``ReportingService`` is measured and checked against (the
/// `report.` benchmarks and their tests), so a report that drifts from its plain query, in
/// its answer or its cost, shows.
public enum ReportingReference {
    /// One period's turnover figures.
    public struct Figures: Sendable, Hashable {
        /// The period label (`2026-11` or `2026-11-23`).
        public var label: String
        /// Transactions counted.
        public var count: Int
        /// Their signed sum in minor units.
        public var turnover: Int64
        /// The smallest signed amount.
        public var minimum: Int64
        /// The largest signed amount.
        public var maximum: Int64
    }

    /// The approved transactions of `merchant` created in `[from, to)`, newest first: how
    /// many, and the ids of the `limit` after skipping `offset`.
    public static func approvedPage(
        _ db: any SQLSession, merchant: String, from: Date, to: Date, limit: Int, offset: Int
    ) throws -> (total: Int, ids: [String]) {
        let filter = """
            FROM payment_transaction WHERE merchant_id = ? AND created_at >= ? AND created_at < ?
              AND status IN ('approved', 'partiallyApproved')
            """
        let total =
            try db.fetchValue(Int.self, sql: "SELECT COUNT(*) \(filter)", arguments: [merchant, from, to]) ?? 0
        let ids = try db.fetchValues(String.self, sql: "SELECT id \(filter) ORDER BY created_at DESC, seq DESC LIMIT ? OFFSET ?",
            arguments: [merchant, from, to, limit, offset])
        return (total, ids)
    }

    /// The whole row of one transaction of `merchant`.
    public static func transaction(_ db: any SQLSession, merchant: String, id: String) throws -> Row? {
        try db.fetchOne(sql: "SELECT * FROM payment_transaction WHERE id = ? AND merchant_id = ?",
            arguments: [id, merchant])
    }

    /// Turnover figures in `[from, to)` per UTC day (`labelLength` 10) or month (7): approved,
    /// partly approved and refunded sales, captures, cash and SEPA payments with their tips,
    /// refunds subtracted.
    public static func turnover(
        _ db: any SQLSession, merchant: String, currency: String, from: Date, to: Date, labelLength: Int
    ) throws -> [Figures] {
        try db.fetchAll(sql: """
                SELECT substr(created_at, 1, CAST(? AS INTEGER)) AS label, COUNT(*) AS n, SUM(amount) AS total,
                  MIN(amount) AS low, MAX(amount) AS high
                FROM (
                  SELECT created_at,
                    (CASE WHEN kind = 'refund' THEN -1 ELSE 1 END) * (amount_captured + amount_tip) AS amount
                  FROM payment_transaction
                  WHERE merchant_id = ? AND currency = ? AND created_at >= ? AND created_at < ?
                    AND kind IN ('sale', 'capture', 'cash', 'sepa', 'refund')
                    AND status IN ('approved', 'partiallyApproved', 'refunded')
                ) AS ledger
                GROUP BY label ORDER BY label
                """, arguments: [labelLength, merchant, currency, from, to]
        ).map { row in
            Figures(
                label: row["label"], count: row["n"], turnover: row["total"], minimum: row["low"],
                maximum: row["high"])
        }
    }

    /// ``turnover(_:merchant:currency:from:to:labelLength:)`` from the figures the database
    /// keeps per day (``DailyTotals``), for a range of whole UTC days `[fromDay, toDay)`
    /// (`yyyy-MM-dd`): what a person would write against that table.
    public static func turnoverFromDailyTotals(
        _ db: any SQLSession, merchant: String, currency: String, fromDay: String, toDay: String, labelLength: Int
    ) throws -> [Figures] {
        try db.fetchAll(sql: """
                SELECT substr(day, 1, CAST(? AS INTEGER)) AS label, SUM(n) AS n, SUM(total) AS total, MIN(low) AS low,
                  MAX(high) AS high
                FROM payment_daily_total
                WHERE merchant_id = ? AND currency = ? AND day >= ? AND day < ?
                  AND status IN ('approved', 'partiallyApproved', 'refunded')
                GROUP BY label ORDER BY label
                """, arguments: [labelLength, merchant, currency, fromDay, toDay]
        ).map { row in
            Figures(
                label: row["label"], count: row["n"], turnover: row["total"], minimum: row["low"],
                maximum: row["high"])
        }
    }

    /// One transaction as the API's JSON, built by the database (`json_object`, PostgreSQL's `json_build_object`) from its row: the same
    /// answer as `GET /v1/transactions/{id}`'s body, field for field, by hand-written SQL. Nil
    /// when `merchant` has no transaction `id`.
    public static func transactionJSON(_ db: any SQLSession, merchant: String, id: String) throws -> String? {
        let dialect = db.dialect
        func object(_ fields: String) -> String { dialect.jsonObjectValue(fields) }
        let signatureRequired = dialect.jsonBoolean("cvm IN ('signature', 'pinAndSignature')")
        let transaction = object(
            """
            'id', id, 'originalID', original_id, 'kind', kind, 'status', status,
              'requestedAmount', amount_requested, 'approvedAmount', amount_approved,
              'tipAmount', amount_tip, 'totalAmount', amount_approved + amount_tip, 'currency', currency,
              'authorizationCode', auth_code, 'responseCode', response_code,
              'issuerAuthenticationData', issuer_authentication_data, 'acquirerMessage', acquirer_message,
              'batchID', CAST(batch_id AS TEXT),
              'card', CASE WHEN masked_pan IS NULL THEN NULL ELSE \(object("""
                'scheme', coalesce(brand, 'unknown'), 'maskedPAN', masked_pan, 'cardholderName', cardholder_name,
                'expiryMonth', CAST(substr(expiry, 3, 2) AS INTEGER),
                'expiryYear', 2000 + CAST(substr(expiry, 1, 2) AS INTEGER)
                """)) END,
              'entryMode', entry_mode, 'cvm', cvm,
              'emv', CASE WHEN aid IS NULL THEN NULL ELSE \(object(
                "'aid', aid, 'applicationLabel', application_label, 'tvr', tvr, 'tsi', tsi")) END,
              'customerReference', customer_reference, 'externalID', external_id,
              'statementDescriptor', descriptor,
              'createdAt', replace(substr(created_at, 1, 19), ' ', 'T') || 'Z',
              'receipt', \(object("'receiptNumber', seq, 'signatureRequired', \(signatureRequired)"))
            """)
        let sql = """
            SELECT \(dialect.jsonText(transaction))
            FROM payment_transaction WHERE id = ? AND merchant_id = ?
            """
        return try db.fetchValue(String.self, sql: sql, arguments: [id, merchant])
    }
}
