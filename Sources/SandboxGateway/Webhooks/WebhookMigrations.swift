import GRDB

extension GatewayMigrations {
    /// The webhook outbox's migrations (append only).
    static let webhooks: [GatewayMigration] = [
        GatewayMigration("webhooks-1-outbox", migrate: WebhookOutbox.createTable),
        GatewayMigration("webhooks-2-pending-index") { db in try db.execute(sql: WebhookOutbox.pendingIndex.joined(separator: ";\n")) },
    ]
}
