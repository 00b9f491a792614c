import Foundation
import GRDB
import Testing

@testable import SandboxGateway

/// The SQLite side of the storage seam: what domain code relies on from any `SQLSession`
/// (changed-row counts, rows by name, NULLs in a column, savepoints, unique violations,
/// record helpers), shown on a real gateway database.
@Suite(.timeLimit(.minutes(1))) struct SQLiteSessionTests {
    /// A migrated gateway database in a directory of its own, and a scratch table.
    static func withDatabase(_ body: (SQLiteGatewayDatabase) async throws -> Void) async throws {
        let directory = GatewayStoreTests.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try SQLiteGatewayDatabase(path: directory.appendingPathComponent("gateway.sqlite").path)
        try await database.write { db in
            try db.execute(sql: "CREATE TABLE scratch (k TEXT PRIMARY KEY, v INTEGER)")
        }
        try await body(database)
        try await database.close()
    }

    @Test func executeReturnsHowManyRowsItChanged() async throws {
        try await Self.withDatabase { database in
            let counts = try await database.write { db in
                [
                    try db.execute(sql: "INSERT INTO scratch (k, v) VALUES ('a', 1), ('b', 2), ('c', 3)"),
                    try db.execute(sql: "UPDATE scratch SET v = v + 1 WHERE v >= ?", arguments: [2]),
                    try db.execute(sql: "DELETE FROM scratch WHERE k = ?", arguments: ["none"]),
                ]
            }
            #expect(counts == [3, 2, 0])
        }
    }

    @Test func rowsAreReadByColumnNameAndColumnsKeepTheirNulls() async throws {
        try await Self.withDatabase { database in
            let (rows, column, value) = try await database.write { db in
                try db.execute(sql: "INSERT INTO scratch (k, v) VALUES ('a', NULL), ('b', 7)")
                return (
                    try db.fetchAll(sql: "SELECT v AS value, k AS key FROM scratch ORDER BY k").map {
                        ($0["key"] as String, $0["value"] as Int?)
                    },
                    try db.fetchColumn(sql: "SELECT v FROM scratch ORDER BY k", arguments: []),
                    try db.fetchValue(Int.self, sql: "SELECT MAX(v) AS top FROM scratch")
                )
            }
            #expect(rows.map(\.0) == ["a", "b"])
            #expect(rows.map(\.1) == [nil, 7])
            #expect(column == [.null, 7.databaseValue])
            #expect(value == 7)
        }
    }

    @Test func aSavepointThatThrowsUndoesOnlyItsOwnWrites() async throws {
        struct Refused: Error {}
        try await Self.withDatabase { database in
            let keys = try await database.write { db in
                try db.execute(sql: "INSERT INTO scratch (k) VALUES ('outer')")
                #expect(throws: Refused.self) {
                    try db.inSavepoint {
                        try db.execute(sql: "INSERT INTO scratch (k) VALUES ('inner')")
                        throw Refused()
                    }
                }
                _ = try db.inSavepoint { try db.execute(sql: "INSERT INTO scratch (k) VALUES ('kept')") }
                return try db.fetchValues(String.self, sql: "SELECT k FROM scratch ORDER BY k")
            }
            #expect(keys == ["kept", "outer"])
        }
    }

    @Test func aDuplicateKeyIsRecognisedAsAUniqueViolation() async throws {
        try await Self.withDatabase { database in
            let error = await #expect(throws: (any Error).self) {
                try await database.write { db in
                    try db.execute(sql: "INSERT INTO scratch (k) VALUES ('a')")
                    try db.execute(sql: "INSERT INTO scratch (k) VALUES ('a')")
                }
            }
            let thrown = try #require(error)
            #expect(SQLSessionError.isUniqueViolation(thrown))
            #expect(!SQLSessionError.isUniqueViolation(CancellationError()))
        }
    }

    @Test func aRecordIsInsertedAndUpdatedByItsKey() async throws {
        try await Self.withDatabase { database in
            let time = Date(timeIntervalSince1970: 1_700_000_000)
            let (before, after, missing) = try await database.write { db in
                var config = LedgerWebhookConfig(
                    merchantId: "m_1", url: "https://example.com/a", secret: "", enabled: true, updatedAt: time)
                try db.insert(config)
                let before = try db.fetchOne(
                    LedgerWebhookConfig.self, sql: "SELECT * FROM payment_webhook_config WHERE merchant_id = ?",
                    arguments: ["m_1"])
                config.url = "https://example.com/b"
                try db.update(config, key: ["merchant_id"])
                let after = try db.fetchOne(
                    LedgerWebhookConfig.self, sql: "SELECT * FROM payment_webhook_config WHERE merchant_id = ?",
                    arguments: ["m_1"])
                config.merchantId = "m_none"
                return (before, after, try db.update(config, key: ["merchant_id"]))
            }
            #expect(before?.url == "https://example.com/a")
            #expect(after?.url == "https://example.com/b" && after?.updatedAt == time)
            #expect(missing == 0)
        }
    }

    @Test func aStoreUsesTheDatabaseItIsGiven() async throws {
        try await Self.withDatabase { database in
            let store = GatewayStore(database: database)
            #expect(store.instanceID == database.instanceID)
            #expect(store.instanceID.hasPrefix("gw_"))
            #expect(store.sqlitePool === database.pool)
            #expect(store.database.dialect == .sqlite)
            #expect(await store.database.isReachable())
        }
    }

    @Test func theGroupCommitWriterGivesItsBodiesASession() async throws {
        try await Self.withDatabase { database in
            let changed = try await database.groupCommitWriter.write { db in
                try db.execute(sql: "INSERT INTO scratch (k, v) VALUES (?, ?)", arguments: ["g", 1])
            }
            let stored = try await database.read { db in
                try db.fetchValue(Int.self, sql: "SELECT v FROM scratch WHERE k = ?", arguments: ["g"])
            }
            #expect(changed == 1 && stored == 1)
            #expect(database.groupCommit.committedGroups == 1)
        }
    }
}
