import GRDB

extension GatewayMigrations {
    /// The dashboard's migrations (append only): its browser sessions and one-time login links,
    /// in the database so that a restart does not log merchants out.
    static let dashboard: [GatewayMigration] = [
        GatewayMigration("dashboard-1-sessions") { db in
            try db.create(table: "dashboard_session") { t in
                t.primaryKey("token_hash", .text)
                t.column("merchant_id", .text).notNull()
                t.column("user_id", .text).notNull()
                t.column("csrf_token", .text).notNull()
                t.column("created_at", .datetime).notNull()
                t.column("expires_at", .datetime).notNull()
            }
            try db.create(table: "dashboard_login_link") { t in
                t.primaryKey("token_hash", .text)
                t.column("merchant_id", .text).notNull()
                t.column("user_id", .text).notNull()
                t.column("expires_at", .datetime).notNull()
                t.column("used_at", .datetime)
            }
        }
    ]
}
