import GRDB

extension GatewayMigrations {
    /// The webhook outbox's migrations (append only).
    static let webhooks: [GatewayMigration] = [
        GatewayMigration("webhooks-1-outbox", migrate: WebhookOutbox.createTable),
        GatewayMigration("webhooks-2-pending-index") { db in try db.execute(sql: WebhookOutbox.pendingIndex.joined(separator: ";\n")) },
        GatewayMigration("webhooks-3-failure-class") { db in
            for statement in WebhookAttempt.failureClassMigration { try db.execute(sql: statement) }
        },
    ]
}

extension WebhookAttempt {
    /// The delivery log keeps a failure class, not the socket's error text
    /// (`webhooks-3-failure-class`, both engines): the `error` column becomes `failure`, and
    /// the text already stored is replaced by its class, so that no earlier probe's answer
    /// stays readable.
    static let failureClassMigration = [
        "ALTER TABLE payment_webhook_delivery RENAME COLUMN error TO failure",
        """
        UPDATE payment_webhook_delivery SET failure = CASE
          WHEN succeeded <> 0 THEN NULL
          WHEN status_code BETWEEN 300 AND 399 THEN 'redirect'
          WHEN status_code IS NOT NULL THEN 'http_status'
          WHEN LOWER(failure) LIKE '%timeout%' OR LOWER(failure) LIKE '%timed out%'
            OR LOWER(failure) LIKE '%deadline%' THEN 'timeout'
          ELSE 'unreachable' END
        """,
    ]
}
