import Foundation
import GRDB

/// One named PostgreSQL schema migration: statements run in order in one transaction.
/// Names are permanent, as ``GatewayMigration``'s are: never rename, reorder or edit one
/// that has run; add a new one.
struct PostgresMigration: Sendable {
    /// The unique name, recorded in `schema_migrations`.
    let name: String
    /// The statements, each with its arguments (computed when the migration runs).
    let statements: @Sendable () -> [(sql: String, arguments: StatementArguments)]

    init(_ name: String, _ statements: @escaping @Sendable () -> [(sql: String, arguments: StatementArguments)]) {
        self.name = name
        self.statements = statements
    }

    init(_ name: String, sql: [String]) {
        self.init(name) { sql.map { ($0, StatementArguments()) } }
    }
}

/// The gateway's schema on PostgreSQL: the same tables, columns, keys, indexes and
/// triggers as the SQLite migrations (``GatewayMigrations``) leave, written as the schema
/// stands today rather than as their history.
///
/// - Names: every table and column is created unquoted, so PostgreSQL folds it to lower
///   case (`merchantId` is stored as `merchantid`); the domain's unquoted SQL finds it, a
///   quoted `"merchantId"` too (``PostgresPlaceholders`` folds quoted names), and GRDB's
///   `row["merchantId"]` reads it (GRDB's row lookups ignore case). The one reserved word,
///   the table `user`, must be written `"user"` by the domain's SQL.
/// - Types: INTEGER is BIGINT (booleans too, 0 and 1 as GRDB stores them), TEXT is TEXT
///   (dates stay GRDB's `YYYY-MM-DD HH:MM:SS.SSS` text in UTC), BLOB is BYTEA, REAL is
///   DOUBLE PRECISION, autoincremented ids are identities.
/// - Triggers: PL/pgSQL functions doing what SQLite's trigger bodies do, fired under the
///   same conditions (`WHEN`).
///
/// Each domain declares its migrations as members of this enum beside its SQLite ones, in its
/// own folder (`Payments/PaymentMigrations+Postgres.swift`); ``all`` lists them in order.
///
/// Each migration runs in a transaction of its own that first takes a transaction-scoped
/// advisory lock, so instances starting together on an empty database apply each migration
/// once, one after another, and the later ones find it recorded.
enum PostgresMigrations {
    /// The advisory lock key the migrations take (`mposmigr` in ASCII).
    static let lockKey: Int64 = 0x6D70_6F73_6D69_6772

    /// Every migration in application order.
    static let all: [PostgresMigration] = [
        core, payments, reporting, updates, dashboard, asynchronousRefunds,
        insertionOrder, webhookOutbox, webhookOutboxPendingIndex, accountSecurity,
        deviceCredentials, webhookDeliveryFailureClass, CardFingerprintKeyMigrations.postgres,
        LedgerAttempts.postgres, DailyTotalChanges.postgres,
    ]

    /// Applies the migrations `session`'s database has not recorded, each in its own
    /// transaction; returns the names it applied.
    ///
    /// - Throws: ``PostgresEngineError`` from a failed statement (that migration's
    ///   transaction is rolled back and the later ones are not tried).
    @discardableResult
    static func migrate(_ session: PostgresSession, migrations: [PostgresMigration] = all) throws -> [String] {
        var applied: [String] = []
        for migration in migrations {
            try session.execute(sql: "BEGIN ISOLATION LEVEL READ COMMITTED")
            do {
                try session.execute(sql: "SELECT pg_advisory_xact_lock(?)", arguments: [lockKey])
                try session.execute(
                    sql: "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT NOT NULL PRIMARY KEY, applied_at TEXT NOT NULL)")
                let done = try session.fetchValue(
                    Int.self, sql: "SELECT COUNT(*) FROM schema_migrations WHERE name = ?", arguments: [migration.name])
                if done == 0 {
                    for statement in migration.statements() {
                        try session.execute(sql: statement.sql, arguments: statement.arguments)
                    }
                    try session.execute(
                        sql: "INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)",
                        arguments: [migration.name, Date()])
                    applied.append(migration.name)
                }
                try session.execute(sql: "COMMIT")
            } catch {
                // The migration's error is what the caller hears; the server rolls back a lost session's transaction itself.
                _ = try? session.execute(sql: "ROLLBACK")
                throw error
            }
        }
        return applied
    }
}
