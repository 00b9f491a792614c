import GRDB

extension GatewayMigrations {
    /// The webhook outbox's migrations (append only).
    static let webhooks: [GatewayMigration] = [
        GatewayMigration("webhooks-1-outbox", migrate: WebhookOutbox.createTable)
    ]
}
