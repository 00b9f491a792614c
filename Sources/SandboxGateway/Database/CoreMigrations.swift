import GRDB

extension GatewayMigrations {
    /// The core's tables: merchants, users, sessions, client tokens, API keys, outbox,
    /// idempotency keys. Dates are GRDB's UTC text format, which sorts chronologically.
    static let core: [GatewayMigration] = [
        GatewayMigration("core-1-accounts") { db in
            try db.create(table: "merchant") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                t.column("currency", .text).notNull()
                t.column("country", .text).notNull()
                t.column("categoryCode", .text).notNull()
                t.column("address", .text)
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(table: "user") { t in
                t.primaryKey("id", .text)
                t.belongsTo("merchant", onDelete: .cascade).notNull()
                t.column("email", .text).notNull().indexed()
                t.column("passwordHash", .text).notNull()
                t.column("failedLogins", .integer).notNull().defaults(to: 0)
                t.column("lockedUntil", .datetime)
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(table: "accessToken") { t in
                t.primaryKey("tokenHash", .text)
                t.belongsTo("merchant", onDelete: .cascade).notNull()
                t.belongsTo("user", onDelete: .cascade).notNull()
                t.column("expiresAt", .datetime).notNull()
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(table: "clientToken") { t in
                t.primaryKey("tokenHash", .text)
                t.belongsTo("merchant", onDelete: .cascade).notNull()
                t.column("expiresAt", .datetime).notNull()
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(table: "apiKey") { t in
                t.primaryKey("keyHash", .text)
                t.belongsTo("merchant", onDelete: .cascade).notNull()
                t.column("createdAt", .datetime).notNull()
                t.column("revokedAt", .datetime)
            }
            try db.create(table: "outbox") { t in
                t.primaryKey("id", .text)
                t.belongsTo("merchant", onDelete: .cascade).notNull()
                t.column("channel", .text).notNull()
                t.column("recipient", .text).notNull()
                t.column("subject", .text).notNull()
                t.column("body", .text).notNull()
                t.column("createdAt", .datetime).notNull()
            }
        },
        GatewayMigration("core-2-idempotency") { db in
            try db.create(table: "idempotencyKey") { t in
                t.belongsTo("merchant", onDelete: .cascade).notNull()
                t.column("key", .text).notNull()
                t.column("requestSHA256", .text).notNull()
                // "inProgress" or "completed"
                t.column("state", .text).notNull()
                t.column("httpStatus", .integer)
                t.column("response", .blob)
                t.column("createdAt", .datetime).notNull().indexed()
                t.primaryKey(["merchantId", "key"])
            }
        },
        // `belongsTo` above also indexed `merchantId` alone, which the primary key already
        // leads with: one b-tree less to change in every idempotent write's transaction.
        GatewayMigration("core-3-idempotency-merchant-index") { db in
            try db.execute(sql: "DROP INDEX IF EXISTS idempotencyKey_on_merchantId")
        },
        // A merchant's offline limits as JSON (`OfflinePolicyTerms`); no row means the defaults.
        GatewayMigration("core-4-offline-policy") { db in
            try db.execute(
                sql: """
                    CREATE TABLE merchantOfflinePolicy (
                      merchantId TEXT NOT NULL PRIMARY KEY REFERENCES merchant(id) ON DELETE CASCADE,
                      terms TEXT NOT NULL
                    )
                    """)
        },
        // The gateway's identity: created once with its database, the same across restarts,
        // ports and the names in front of it. A terminal's journal binds to it (not to a URL).
        GatewayMigration("core-5-gateway-instance") { db in
            try db.execute(
                sql: """
                    CREATE TABLE gatewayInstance (
                      id INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
                      instanceId TEXT NOT NULL
                    )
                    """)
            try db.execute(
                sql: "INSERT INTO gatewayInstance (id, instanceId) VALUES (1, ?)",
                arguments: [Secrets.newID(prefix: "gw_")])
        },
        // One-time password-reset codes (their SHA-256 only) and the append-only security log.
        GatewayMigration("core-6-account-security") { db in
            try db.execute(sql: AccountSecuritySchema.passwordReset)
            try db.execute(sql: AccountSecuritySchema.securityEvent)
            try db.execute(sql: AccountSecuritySchema.securityEventIndex)
        },
        // Device credentials, and the device a session was renewed by.
        GatewayMigration("core-7-device-credentials") { db in
            try db.execute(sql: AccountSecuritySchema.deviceCredential)
            try db.execute(sql: AccountSecuritySchema.deviceCredentialIndex)
            try db.execute(sql: AccountSecuritySchema.accessTokenDevice)
            try db.execute(sql: AccountSecuritySchema.clientTokenDevice)
        },
    ]
}
