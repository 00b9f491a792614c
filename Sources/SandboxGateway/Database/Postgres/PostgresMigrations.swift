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

    // MARK: - Core

    /// Accounts, tokens, API keys, outbox, idempotency keys, offline policy and the
    /// gateway's instance id (SQLite's `core-1` … `core-5`).
    static let core = PostgresMigration("core-1-schema") {
        [
            (
                """
                CREATE TABLE merchant (
                  id TEXT NOT NULL PRIMARY KEY,
                  name TEXT NOT NULL,
                  currency TEXT NOT NULL,
                  country TEXT NOT NULL,
                  categoryCode TEXT NOT NULL,
                  address TEXT,
                  createdAt TEXT NOT NULL
                )
                """, []
            ),
            (
                """
                CREATE TABLE "user" (
                  id TEXT NOT NULL PRIMARY KEY,
                  merchantId TEXT NOT NULL REFERENCES merchant(id) ON DELETE CASCADE,
                  email TEXT NOT NULL,
                  passwordHash TEXT NOT NULL,
                  failedLogins BIGINT NOT NULL DEFAULT 0,
                  lockedUntil TEXT,
                  createdAt TEXT NOT NULL
                )
                """, []
            ),
            ("CREATE INDEX user_on_merchantId ON \"user\" (merchantId)", []),
            ("CREATE INDEX user_on_email ON \"user\" (email)", []),
            (
                """
                CREATE TABLE accessToken (
                  tokenHash TEXT NOT NULL PRIMARY KEY,
                  merchantId TEXT NOT NULL REFERENCES merchant(id) ON DELETE CASCADE,
                  userId TEXT NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
                  expiresAt TEXT NOT NULL,
                  createdAt TEXT NOT NULL
                )
                """, []
            ),
            ("CREATE INDEX accessToken_on_merchantId ON accessToken (merchantId)", []),
            ("CREATE INDEX accessToken_on_userId ON accessToken (userId)", []),
            (
                """
                CREATE TABLE clientToken (
                  tokenHash TEXT NOT NULL PRIMARY KEY,
                  merchantId TEXT NOT NULL REFERENCES merchant(id) ON DELETE CASCADE,
                  expiresAt TEXT NOT NULL,
                  createdAt TEXT NOT NULL
                )
                """, []
            ),
            ("CREATE INDEX clientToken_on_merchantId ON clientToken (merchantId)", []),
            (
                """
                CREATE TABLE apiKey (
                  keyHash TEXT NOT NULL PRIMARY KEY,
                  merchantId TEXT NOT NULL REFERENCES merchant(id) ON DELETE CASCADE,
                  createdAt TEXT NOT NULL,
                  revokedAt TEXT
                )
                """, []
            ),
            ("CREATE INDEX apiKey_on_merchantId ON apiKey (merchantId)", []),
            (
                """
                CREATE TABLE outbox (
                  id TEXT NOT NULL PRIMARY KEY,
                  merchantId TEXT NOT NULL REFERENCES merchant(id) ON DELETE CASCADE,
                  channel TEXT NOT NULL,
                  recipient TEXT NOT NULL,
                  subject TEXT NOT NULL,
                  body TEXT NOT NULL,
                  createdAt TEXT NOT NULL
                )
                """, []
            ),
            ("CREATE INDEX outbox_on_merchantId ON outbox (merchantId)", []),
            (
                """
                CREATE TABLE idempotencyKey (
                  merchantId TEXT NOT NULL REFERENCES merchant(id) ON DELETE CASCADE,
                  key TEXT NOT NULL,
                  requestSHA256 TEXT NOT NULL,
                  state TEXT NOT NULL,
                  httpStatus BIGINT,
                  response BYTEA,
                  createdAt TEXT NOT NULL,
                  PRIMARY KEY (merchantId, key)
                )
                """, []
            ),
            ("CREATE INDEX idempotencyKey_on_createdAt ON idempotencyKey (createdAt)", []),
            (
                """
                CREATE TABLE merchantOfflinePolicy (
                  merchantId TEXT NOT NULL PRIMARY KEY REFERENCES merchant(id) ON DELETE CASCADE,
                  terms TEXT NOT NULL
                )
                """, []
            ),
            (
                """
                CREATE TABLE gatewayInstance (
                  id BIGINT NOT NULL PRIMARY KEY CHECK (id = 1),
                  instanceId TEXT NOT NULL
                )
                """, []
            ),
            // Once per database: every instance on it shares the id.
            (
                "INSERT INTO gatewayInstance (id, instanceId) VALUES (1, ?) ON CONFLICT (id) DO NOTHING",
                [Secrets.newID(prefix: "gw_")]
            ),
        ]
    }

    // MARK: - Payments

    /// The ledger, batches, SEPA mandates, webhooks, card spend per day, basket lines,
    /// cryptogram counters, signatures and offline forwards (SQLite's `payments-1` … `payments-9`).
    static let payments = PostgresMigration("payments-1-schema") {
        [
            ("CREATE TABLE payment_secret (name TEXT NOT NULL PRIMARY KEY, value BYTEA NOT NULL)", []),
            (
                "INSERT INTO payment_secret (name, value) VALUES ('card_fingerprint', ?) ON CONFLICT (name) DO NOTHING",
                [Data(CardFingerprintKey.random().bytes)]
            ),
            (
                """
                CREATE TABLE payment_batch (
                  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
                  merchant_id TEXT NOT NULL,
                  status TEXT NOT NULL,
                  opened_at TEXT NOT NULL,
                  closed_at TEXT,
                  transaction_count BIGINT NOT NULL DEFAULT 0,
                  net_amount BIGINT NOT NULL DEFAULT 0
                )
                """, []
            ),
            ("CREATE UNIQUE INDEX payment_batch_open ON payment_batch (merchant_id) WHERE status = 'open'", []),
            (
                """
                CREATE TABLE payment_transaction (
                  seq BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
                  id TEXT NOT NULL UNIQUE,
                  merchant_id TEXT NOT NULL,
                  kind TEXT NOT NULL,
                  status TEXT NOT NULL,
                  original_id TEXT,
                  amount_requested BIGINT NOT NULL,
                  amount_approved BIGINT NOT NULL DEFAULT 0,
                  amount_captured BIGINT NOT NULL DEFAULT 0,
                  amount_refunded BIGINT NOT NULL DEFAULT 0,
                  amount_tip BIGINT NOT NULL DEFAULT 0,
                  amount_major BIGINT NOT NULL,
                  currency TEXT NOT NULL,
                  response_code TEXT,
                  auth_code TEXT,
                  acquirer_message TEXT,
                  batch_id BIGINT REFERENCES payment_batch(id),
                  card_fingerprint TEXT,
                  masked_pan TEXT,
                  brand TEXT,
                  expiry TEXT,
                  cardholder_name TEXT,
                  entry_mode TEXT,
                  cvm TEXT,
                  aid TEXT,
                  application_label TEXT,
                  tvr TEXT,
                  tsi TEXT,
                  issuer_authentication_data TEXT,
                  customer_reference TEXT,
                  external_id TEXT,
                  descriptor TEXT,
                  capture_mode TEXT,
                  allow_partial BIGINT NOT NULL DEFAULT 0,
                  created_at TEXT NOT NULL,
                  updated_at TEXT NOT NULL
                )
                """, []
            ),
            (
                """
                CREATE INDEX payment_transaction_merchant_time_covering ON payment_transaction
                  (merchant_id, created_at, seq, currency, kind, status, amount_requested, amount_captured, amount_tip)
                """, []
            ),
            (
                "CREATE INDEX payment_transaction_fingerprint ON payment_transaction (merchant_id, card_fingerprint, created_at)",
                []
            ),
            (
                "CREATE INDEX payment_transaction_original ON payment_transaction (original_id) WHERE original_id IS NOT NULL",
                []
            ),
            ("CREATE INDEX payment_transaction_batch ON payment_transaction (batch_id)", []),
            (
                """
                CREATE TABLE payment_sepa (
                  transaction_id TEXT NOT NULL PRIMARY KEY REFERENCES payment_transaction(id),
                  mandate_reference TEXT NOT NULL,
                  signed_at TEXT NOT NULL
                )
                """, []
            ),
            (
                """
                CREATE TABLE payment_webhook_config (
                  merchant_id TEXT NOT NULL PRIMARY KEY,
                  url TEXT NOT NULL,
                  secret TEXT NOT NULL,
                  enabled BIGINT NOT NULL,
                  updated_at TEXT NOT NULL
                )
                """, []
            ),
            (
                """
                CREATE TABLE payment_webhook_delivery (
                  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
                  merchant_id TEXT NOT NULL,
                  event_id TEXT NOT NULL,
                  transaction_id TEXT NOT NULL,
                  url TEXT NOT NULL,
                  attempt BIGINT NOT NULL,
                  status_code BIGINT,
                  error TEXT,
                  succeeded BIGINT NOT NULL,
                  attempted_at TEXT NOT NULL,
                  next_attempt_at TEXT
                )
                """, []
            ),
            ("CREATE INDEX payment_webhook_delivery_merchant ON payment_webhook_delivery (merchant_id, id)", []),
            (
                """
                CREATE TABLE payment_basket_line (
                  transaction_id TEXT NOT NULL REFERENCES payment_transaction(id),
                  position BIGINT NOT NULL,
                  description TEXT NOT NULL,
                  quantity BIGINT NOT NULL,
                  unit_price BIGINT NOT NULL,
                  total BIGINT NOT NULL,
                  tax_basis_points BIGINT NOT NULL,
                  PRIMARY KEY (transaction_id, position)
                )
                """, []
            ),
            (
                """
                CREATE TABLE payment_card_counter (
                  card_fingerprint TEXT NOT NULL,
                  psn BIGINT NOT NULL,
                  transaction_date TEXT NOT NULL,
                  highest_atc BIGINT NOT NULL,
                  PRIMARY KEY (card_fingerprint, psn, transaction_date)
                )
                """, []
            ),
            ("CREATE TABLE payment_ksn_seen (ksn BYTEA NOT NULL PRIMARY KEY)", []),
            ("CREATE TABLE payment_signature (transaction_id TEXT NOT NULL PRIMARY KEY, png BYTEA NOT NULL)", []),
            (
                """
                CREATE TABLE payment_offline_forward (
                  transaction_id TEXT NOT NULL PRIMARY KEY REFERENCES payment_transaction(id),
                  merchant_id TEXT NOT NULL,
                  stored_at TEXT NOT NULL,
                  arrived_at TEXT NOT NULL
                )
                """, []
            ),
            (
                "CREATE INDEX payment_offline_forward_merchant ON payment_offline_forward (merchant_id, arrived_at)", []
            ),
        ] + PostgresLedgerTriggers.cardSpend.map { ($0, StatementArguments()) }
    }

    // MARK: - Reporting, updates, dashboard

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
