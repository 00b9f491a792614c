import Foundation
import GRDB

/// The core's schema on PostgreSQL, beside its SQLite migrations (``GatewayMigrations/core``).
extension PostgresMigrations {
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

    /// The column ``SQLDialect/rowOrder`` names on PostgreSQL: SQLite's `rowid`, which
    /// PostgreSQL rows do not have. The tables whose reads break ties by insertion order (the
    /// first merchant owns the sandbox; the outbox and the update catalogue list newest first)
    /// get an identity that numbers their rows as they are inserted, existing rows included.
    static let insertionOrderColumn = "row_seq"

    /// Adds ``insertionOrderColumn`` to `merchant`, `outbox` and `update_image`.
    static let insertionOrder = PostgresMigration(
        "core-2-insertion-order",
        sql: ["merchant", "outbox", "update_image"].map { table in
            "ALTER TABLE \(table) ADD COLUMN \(insertionOrderColumn) BIGINT GENERATED BY DEFAULT AS IDENTITY"
        })
}
