import Foundation
import GRDB

/// The webhook outbox: events are written in the same transaction as the ledger change that
/// causes them, so a committed change always has its events, and a gateway that stops before
/// delivering leaves them to the next pass, of this instance or another on the same database.
///
/// Delivery claims rows with a lease (`claimed_until`, `claimed_by`); on PostgreSQL the claim
/// skips rows another instance has locked, so two passes racing never take the same event.
/// An instance that dies mid-delivery leaves its claim to run out; then another takes it over.
enum WebhookOutbox {
    /// The most events one claim takes.
    static let claimBatch = 32

    /// An event waiting in the outbox, as a claim returns it.
    struct Event: Sendable, Equatable {
        var eventID: String
        var merchantID: String
        var transactionID: String
        var url: String
        var secret: String?
        var body: [UInt8]
        /// Attempts made so far (0 before the first).
        var attempts: Int

        init(row: Row) {
            eventID = row["event_id"]
            merchantID = row["merchant_id"]
            transactionID = row["transaction_id"]
            url = row["url"]
            secret = row["secret"]
            body = Array((row["body"] as Data?) ?? Data())
            attempts = row["attempt"]
        }
    }

    /// The SQLite table (`webhooks-1-outbox`); its PostgreSQL twin is
    /// ``PostgresMigrations/webhookOutbox``.
    @Sendable static func createTable(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE payment_webhook_outbox (
                  event_id TEXT NOT NULL PRIMARY KEY,
                  merchant_id TEXT NOT NULL,
                  transaction_id TEXT NOT NULL,
                  url TEXT NOT NULL,
                  secret TEXT,
                  body BLOB NOT NULL,
                  attempt INTEGER NOT NULL DEFAULT 0,
                  next_attempt_at DATETIME NOT NULL,
                  claimed_until DATETIME,
                  claimed_by TEXT,
                  delivered_at DATETIME,
                  gave_up_at DATETIME,
                  created_at DATETIME NOT NULL
                );
                CREATE INDEX payment_webhook_outbox_due ON payment_webhook_outbox (next_attempt_at);
                """)
    }

    /// The due index holds only events still to deliver (`webhooks-2-pending-index`, both
    /// engines): delivered events stay in the table, and with the first index on every row a
    /// pass read all of them, every second, once the log was weeks long.
    static let pendingIndex = [
        "DROP INDEX payment_webhook_outbox_due",
        """
        CREATE INDEX payment_webhook_outbox_pending ON payment_webhook_outbox (next_attempt_at)
        WHERE delivered_at IS NULL AND gave_up_at IS NULL
        """,
    ]

    /// Whether any event is due at `time` and unclaimed: read by a pass before it claims, so an
    /// idle gateway takes no write lock.
    static func anyDue(_ db: any SQLSession, at time: Date) throws -> Bool {
        let now = SQLiteTimestamp.string(from: time)
        return try db.fetchValue(
            Int.self,
            sql: """
                SELECT 1 FROM payment_webhook_outbox WHERE \(dueNow) LIMIT 1
                """, arguments: [now, now]) != nil
    }

    /// An event to deliver whose time has come (the first `?`) and that no claim holds at that
    /// time (the second); it implies the pending index's condition, so both queries use it.
    private static let dueNow = """
        delivered_at IS NULL AND gave_up_at IS NULL AND next_attempt_at <= ?
          AND (claimed_until IS NULL OR claimed_until < ?)
        """

    /// Reads the merchant's enabled webhook in `db`'s transaction and stores one event per row
    /// for it; returns the webhook (or `nil` when the merchant has none enabled).
    ///
    /// Called inside the write that changes `rows`, so the events commit or roll back with it.
    @discardableResult
    static func record(
        _ db: any SQLSession, _ rows: [LedgerTransaction], merchant: String, at time: Date
    ) throws -> LedgerWebhookConfig? {
        let config = try WebhookNotifier.config(db, merchant: merchant)
        try record(db, rows, merchant: merchant, config: config, at: time)
        return config
    }

    /// Stores one event per row for `config`, the merchant's enabled webhook its write has read
    /// already (``AuthorizationContext``); nothing when it is nil.
    static func record(
        _ db: any SQLSession, _ rows: [LedgerTransaction], merchant: String, config: LedgerWebhookConfig?,
        at time: Date
    ) throws {
        guard let config, URL(string: config.url) != nil else { return }
        let name = try merchantName(db, merchant)
        for row in rows {
            try insert(
                db, row: row, merchantName: name, url: config.url,
                secret: config.secret.isEmpty ? nil : config.secret, at: time)
        }
    }

    /// Stores the event posting `row`'s outcome to the callback URL its payment named, signed
    /// with the merchant's webhook secret when one is set.
    static func recordCallback(
        _ db: any SQLSession, _ row: LedgerTransaction, to url: URL, config: LedgerWebhookConfig?, at time: Date
    ) throws {
        try insert(
            db, row: row, merchantName: try merchantName(db, row.merchantId), url: url.absoluteString,
            secret: config.flatMap { $0.secret.isEmpty ? nil : $0.secret }, at: time)
    }

    /// The merchant's display name for `merchant_name`, its id when the merchant is unknown.
    private static func merchantName(_ db: any SQLSession, _ merchant: String) throws -> String {
        try db.fetchValue(String.self, sql: "SELECT name FROM merchant WHERE id = ?", arguments: [merchant])
            ?? merchant
    }

    /// Inserts one event, due at once.
    static func insert(
        _ db: any SQLSession, row: LedgerTransaction, merchantName: String, url: String, secret: String?, at time: Date
    ) throws {
        let body = try WebhookBody.encode(row, merchantName: merchantName)
        let now = SQLiteTimestamp.string(from: time)
        try db.execute(
            sql: """
                INSERT INTO payment_webhook_outbox
                  (event_id, merchant_id, transaction_id, url, secret, body, attempt, next_attempt_at, created_at)
                VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?)
                """,
            arguments: [
                WebhookNotifier.newEventID(), row.merchantId, row.id, url, secret, Data(body), now, now,
            ])
    }

    /// Claims up to ``claimBatch`` events due at `time` whose claim (if any) has run out, for
    /// `owner` until `time + lease`, oldest due first.
    ///
    /// The inner select claims the rows it picks and passes over those another transaction
    /// holds, so concurrent claims of instances sharing the database get disjoint events.
    static func claim(_ db: any SQLSession, owner: String, at time: Date, lease: TimeInterval) throws -> [Event] {
        let now = SQLiteTimestamp.string(from: time)
        let lock = db.dialect.claimingUnheldRows
        return try db.fetchAll(
            sql: """
                UPDATE payment_webhook_outbox SET claimed_until = ?, claimed_by = ?
                WHERE event_id IN (
                  SELECT event_id FROM payment_webhook_outbox WHERE \(dueNow)
                  ORDER BY next_attempt_at LIMIT \(claimBatch)\(lock))
                RETURNING event_id, merchant_id, transaction_id, url, secret, body, attempt
                """,
            arguments: [SQLiteTimestamp.string(from: time.addingTimeInterval(lease)), owner, now, now]
        ).map(Event.init(row:))
    }

    /// Records the outcome of an attempt on an event `owner` holds: delivered, due again at
    /// `nextAttemptAt` (the claim kept until `lease` after it, as this instance retries it
    /// itself), or given up. Returns whether the event was still `owner`'s.
    @discardableResult
    static func settle(
        _ db: any SQLSession, _ attempt: WebhookAttempt, owner: String, lease: TimeInterval
    ) throws -> Bool {
        let at = SQLiteTimestamp.string(from: attempt.attemptedAt)
        if attempt.succeeded {
            return try db.execute(
                sql: """
                    UPDATE payment_webhook_outbox SET attempt = ?, delivered_at = ?, claimed_until = NULL
                    WHERE event_id = ? AND claimed_by = ?
                    """, arguments: [attempt.attempt, at, attempt.eventID, owner]) > 0
        }
        guard let next = attempt.nextAttemptAt else {
            return try db.execute(
                sql: """
                    UPDATE payment_webhook_outbox SET attempt = ?, gave_up_at = ?, claimed_until = NULL
                    WHERE event_id = ? AND claimed_by = ?
                    """, arguments: [attempt.attempt, at, attempt.eventID, owner]) > 0
        }
        return try db.execute(
            sql: """
                UPDATE payment_webhook_outbox SET attempt = ?, next_attempt_at = ?, claimed_until = ?
                WHERE event_id = ? AND claimed_by = ?
                """,
            arguments: [
                attempt.attempt, SQLiteTimestamp.string(from: next),
                SQLiteTimestamp.string(from: next.addingTimeInterval(lease)), attempt.eventID, owner,
            ]) > 0
    }

    /// Lets go of every claim: run at a SQLite gateway's start, where one process serves the
    /// file, so claims still set belong to a process that has stopped.
    static func releaseClaims(_ db: any SQLSession) throws {
        try db.execute(
            sql: """
                UPDATE payment_webhook_outbox SET claimed_until = NULL, claimed_by = NULL
                WHERE claimed_until IS NOT NULL AND delivered_at IS NULL AND gave_up_at IS NULL
                """)
    }

    /// Events neither delivered nor given up.
    static func undeliveredCount(_ db: any SQLSession) throws -> Int {
        try db.fetchValue(
            Int.self,
            sql: "SELECT COUNT(*) FROM payment_webhook_outbox WHERE delivered_at IS NULL AND gave_up_at IS NULL") ?? 0
    }
}
