/// The back office's schema on PostgreSQL, beside its SQLite migrations
/// (``GatewayMigrations/dashboard``).
extension PostgresMigrations {
    /// The dashboard's sessions and one-time login links (SQLite's `dashboard-1-sessions`).
    static let dashboard = PostgresMigration(
        "dashboard-1-schema",
        sql: [
            """
            CREATE TABLE dashboard_session (
              token_hash TEXT NOT NULL PRIMARY KEY,
              merchant_id TEXT NOT NULL,
              user_id TEXT NOT NULL,
              csrf_token TEXT NOT NULL,
              created_at TEXT NOT NULL,
              expires_at TEXT NOT NULL
            )
            """,
            """
            CREATE TABLE dashboard_login_link (
              token_hash TEXT NOT NULL PRIMARY KEY,
              merchant_id TEXT NOT NULL,
              user_id TEXT NOT NULL,
              expires_at TEXT NOT NULL,
              used_at TEXT
            )
            """,
        ])
}
