import Foundation
import GRDB
import MPOSCore

/// A merchant's asynchronous refunds, as Adyen answers refunds: the request is answered at once
/// as received (a refund row with status `pending`), and the gateway decides it later
/// (``PendingRefundSettler``), moving the original's refunded amount only on approval and
/// posting the outcome to the merchant's webhook.
///
/// Plain SQL with `?` placeholders, rows read by column name, so the same statements serve
/// another storage behind the gateway's seam.
enum AsynchronousRefunds {
    /// The acquirer message of a refund received and not yet decided.
    static let receivedMessage = "Received"

    /// The setting per merchant (no row: off) and the refunds waiting for their decision.
    ///
    /// A pending refund's row says when it was accepted; an unreferenced card refund also keeps
    /// the issuer's answer given when the card was read (`decided_…`), which settlement applies;
    /// a referenced refund is decided at settlement against its original as it is then.
    @Sendable static func createTables(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE payment_refund_setting (
                  merchant_id TEXT NOT NULL PRIMARY KEY,
                  asynchronous BOOLEAN NOT NULL DEFAULT 0,
                  updated_at DATETIME NOT NULL
                );
                CREATE TABLE payment_pending_refund (
                  transaction_id TEXT NOT NULL PRIMARY KEY,
                  merchant_id TEXT NOT NULL,
                  accepted_at DATETIME NOT NULL,
                  decided_approved BOOLEAN,
                  decided_response_code TEXT,
                  decided_message TEXT,
                  decided_auth_code TEXT
                );
                CREATE INDEX payment_pending_refund_accepted ON payment_pending_refund (accepted_at);
                """)
    }

    /// Whether `merchant` asked for asynchronous refunds.
    static func isOn(_ db: any SQLSession, merchant: String) throws -> Bool {
        let row = try db.fetchOne(sql: "SELECT asynchronous FROM payment_refund_setting WHERE merchant_id = ?",
            arguments: [merchant])
        return row.map { $0["asynchronous"] as Bool } ?? false
    }

    /// Turns asynchronous refunds on or off for `merchant`. Refunds already pending still settle.
    static func set(_ db: any SQLSession, merchant: String, asynchronous: Bool, now: Date) throws {
        try db.execute(
            sql: """
                INSERT INTO payment_refund_setting (merchant_id, asynchronous, updated_at) VALUES (?, ?, ?)
                ON CONFLICT (merchant_id) DO UPDATE SET asynchronous = excluded.asynchronous,
                  updated_at = excluded.updated_at
                """,
            arguments: [merchant, asynchronous, SQLiteTimestamp.string(from: now)])
    }

    /// Records `refund` (inserted in the same transaction) as waiting for settlement. With
    /// `decided`, the issuer's answer settlement applies (an unreferenced card refund).
    static func enqueue(_ db: any SQLSession, _ refund: LedgerTransaction, decided: IssuerAnswer? = nil) throws {
        try db.execute(
            sql: """
                INSERT INTO payment_pending_refund (transaction_id, merchant_id, accepted_at,
                  decided_approved, decided_response_code, decided_message, decided_auth_code)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                refund.id, refund.merchantId, SQLiteTimestamp.string(from: refund.createdAt),
                decided?.approved, decided?.responseCode, decided?.message, decided?.authorizationCode,
            ])
    }

    /// For an unreferenced card refund just decided in `row`: when its merchant asked for
    /// asynchronous refunds, keeps the decision for settlement and turns `row` into the refund
    /// as received (pending, nothing approved, no response code), to be inserted by the caller.
    static func deferUnreferenced(_ db: any SQLSession, _ row: inout LedgerTransaction) throws {
        guard row.kind == .refund, row.originalId == nil, try isOn(db, merchant: row.merchantId) else { return }
        let decided = IssuerAnswer(
            approved: row.status == .approved, approvedAmount: nil, responseCode: row.responseCode ?? "05",
            authorizationCode: row.authCode, message: row.acquirerMessage ?? "", issuerAuthenticationData: nil)
        row.status = .pending
        row.amountApproved = 0
        row.amountCaptured = 0
        row.responseCode = nil
        row.authCode = nil
        row.acquirerMessage = receivedMessage
        try enqueue(db, row, decided: decided)
    }

    /// Turns a follow-up row built for a referenced refund into the refund as received.
    static func received(_ row: inout LedgerTransaction) {
        row.status = .pending
        row.amountApproved = 0
        row.amountCaptured = 0
        row.responseCode = nil
        row.acquirerMessage = receivedMessage
    }
}
