import GRDB

/// The reporting domain's schema on PostgreSQL, beside its SQLite migrations
/// (``GatewayMigrations/reporting``).
extension PostgresMigrations {
    /// Inventory versions and the daily statistics figures (SQLite's `reporting-1` … `reporting-3`).
    static let reporting = PostgresMigration("reporting-1-schema") {
        [
            (
                """
                CREATE TABLE payment_inventory (
                  merchant_id TEXT NOT NULL,
                  version BIGINT NOT NULL,
                  content BYTEA NOT NULL,
                  sha256 TEXT NOT NULL,
                  columns TEXT NOT NULL,
                  row_count BIGINT NOT NULL,
                  uploaded_at TEXT NOT NULL,
                  PRIMARY KEY (merchant_id, version)
                )
                """, []
            )
        ] + PostgresLedgerTriggers.dailyTotals.map { ($0, StatementArguments()) }
    }
}
