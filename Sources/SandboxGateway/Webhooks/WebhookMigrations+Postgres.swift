import Foundation

extension PostgresMigrations {
    /// The webhook outbox (SQLite's `webhooks-1-outbox`, ``WebhookOutbox/createTable(_:)``).
    static let webhookOutbox = PostgresMigration(
        "webhooks-1-outbox",
        sql: [
            """
            CREATE TABLE payment_webhook_outbox (
              event_id TEXT NOT NULL PRIMARY KEY,
              merchant_id TEXT NOT NULL,
              transaction_id TEXT NOT NULL,
              url TEXT NOT NULL,
              secret TEXT,
              body BYTEA NOT NULL,
              attempt BIGINT NOT NULL DEFAULT 0,
              next_attempt_at TEXT NOT NULL,
              claimed_until TEXT,
              claimed_by TEXT,
              delivered_at TEXT,
              gave_up_at TEXT,
              created_at TEXT NOT NULL
            )
            """,
            "CREATE INDEX payment_webhook_outbox_due ON payment_webhook_outbox (next_attempt_at)",
        ])

    /// Only events still to deliver in the due index (SQLite's `webhooks-2-pending-index`).
    static let webhookOutboxPendingIndex = PostgresMigration(
        "webhooks-2-pending-index", sql: WebhookOutbox.pendingIndex)

    /// The delivery log's failure class instead of the socket's error text (SQLite's
    /// `webhooks-3-failure-class`).
    static let webhookDeliveryFailureClass = PostgresMigration(
        "webhooks-3-failure-class", sql: WebhookAttempt.failureClassMigration)
}
