import Foundation
import GRDB
import MPOSTestSupport
import Testing

@testable import SandboxGateway

/// `PostgresGatewayDatabase` as several gateway instances use it: one schema, one instance
/// id, snapshots that see committed writes, retries on conflicts, a health check.
@Suite(
    .timeLimit(.minutes(3)), .enabled(if: LocalPostgres.isInstalled, PostgresTestServer.notInstalled), .postgresServer)
struct PostgresGatewayDatabaseTests {
    @Test func twoDatabasesOnOneDatabaseShareTheInstanceID() async throws {
        let url = try PostgresTestServer.freshDatabase()
        let first = try await PostgresGatewayDatabase(url: url)
        let second = try await PostgresGatewayDatabase(url: url)
        #expect(first.instanceID == second.instanceID)
        #expect(first.instanceID.hasPrefix("gw_"))
        #expect(first.instanceID.count == 3 + 16)
        try await first.close()
        try await second.close()
    }

    @Test func migratingTwiceAppliesNothingTheSecondTime() async throws {
        try await PostgresTestServer.withDatabase { database in
            let again = try await database.migrate()
            #expect(again.isEmpty)
            let recorded = try await database.read { session in
                try session.fetchValues(String.self, sql: "SELECT name FROM schema_migrations ORDER BY name")
            }
            #expect(recorded == PostgresMigrations.all.map(\.name).sorted())
        }
    }

    @Test func concurrentMigratorsOnAnEmptyDatabaseBothSucceed() async throws {
        let url = try PostgresTestServer.freshDatabase()
        async let first = PostgresGatewayDatabase(url: url)
        async let second = PostgresGatewayDatabase(url: url)
        let databases = try await [first, second]
        #expect(databases[0].instanceID == databases[1].instanceID)
        let count = try await databases[0].read { session in
            try session.fetchValue(Int.self, sql: "SELECT COUNT(*) FROM schema_migrations")
        }
        #expect(count == PostgresMigrations.all.count)
        for database in databases { try await database.close() }
    }

    @Test func readSeesWhatAnotherInstanceCommitted() async throws {
        let url = try PostgresTestServer.freshDatabase()
        let writer = try await PostgresGatewayDatabase(url: url)
        let reader = try await PostgresGatewayDatabase(url: url)
        let now = Date()
        _ = try await writer.write { session in
            try session.execute(
                sql: "INSERT INTO merchant (id, name, currency, country, categoryCode, createdAt) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: ["m_1", "Corner Café", "EUR", "DE", "5814", now])
        }
        let (name, category, createdAt) = try await reader.read { session in
            let row = try #require(try session.fetchOne(sql: "SELECT * FROM merchant WHERE id = ?", arguments: ["m_1"]))
            return (row["name"] as String, row["categoryCode"] as String, row["createdAt"] as Date)
        }
        #expect(name == "Corner Café")
        #expect(category == "5814")
        #expect(abs(createdAt.timeIntervalSince(now)) < 0.001)
        try await writer.close()
        try await reader.close()
    }

    @Test func quotedAndUnquotedCamelCaseNamesReachTheSameColumns() async throws {
        try await PostgresTestServer.withDatabase { database in
            try await database.write { session in
                try session.execute(
                    sql: #"INSERT INTO "merchant" ("id", "name", "currency", "country", "categoryCode", "createdAt") VALUES (?, ?, ?, ?, ?, ?)"#,
                    arguments: ["m_2", "Kiosk", "EUR", "AT", "5994", Date()])
                try session.execute(
                    sql: "INSERT INTO merchantOfflinePolicy (merchantId, terms) VALUES (?, ?)", arguments: ["m_2", "{}"])
            }
            let terms = try await database.read { session in
                try session.fetchValue(String.self, sql: #"SELECT "terms" FROM "merchantOfflinePolicy" WHERE "merchantId" = ?"#, arguments: ["m_2"])
            }
            #expect(terms == "{}")
        }
    }

    @Test func writeRunsAgainOnASerializationFailure() async throws {
        try await PostgresTestServer.withDatabase { database in
            _ = try await database.write { try $0.execute(sql: "CREATE SEQUENCE tries") }
            let attempts = try await database.write { session in
                try Self.failTwiceWith40001(session)
                return try session.fetchValue(Int.self, sql: "SELECT last_value FROM tries")
            }
            #expect(attempts == 3)
        }
    }

    @Test func writeGivesUpAfterItsAttempts() async throws {
        var configuration = PostgresGatewayDatabase.Configuration()
        configuration.maximumAttempts = 2
        try await PostgresTestServer.withDatabase(configuration: configuration) { database in
            _ = try await database.write { try $0.execute(sql: "CREATE SEQUENCE tries") }
            let error = await #expect(throws: PostgresEngineError.self) {
                try await database.write { session in try Self.failTwiceWith40001(session) }
            }
            #expect(error?.sqlState == "40001")
        }
    }

    @Test func groupCommitRunsTheGroupAgainOnASerializationFailure() async throws {
        try await PostgresTestServer.withDatabase { database in
            try await database.write { session in
                try session.execute(sql: "CREATE SEQUENCE tries")
                try session.execute(sql: "CREATE TABLE entry (id BIGINT PRIMARY KEY)")
            }
            try await database.groupWriter.write { session in
                try session.execute(sql: "INSERT INTO entry (id) VALUES (?)", arguments: [1])
                try Self.failTwiceWith40001(session)
            }
            let ids = try await database.read { try $0.fetchValues(Int.self, sql: "SELECT id FROM entry") }
            #expect(ids == [1])
        }
    }

    /// Fails with `40001` on the first two calls (counted by a sequence, which no rollback undoes).
    static func failTwiceWith40001(_ session: any SQLSession) throws {
        try session.execute(
            sql: """
                DO $$ BEGIN
                  IF nextval('tries') < 3 THEN RAISE EXCEPTION 'try again' USING ERRCODE = 'serialization_failure'; END IF;
                END $$
                """)
    }

    @Test func readIsReadOnly() async throws {
        try await PostgresTestServer.withDatabase { database in
            let error = await #expect(throws: PostgresEngineError.self) {
                try await database.read { session in
                    try session.execute(sql: "DELETE FROM merchant")
                }
            }
            #expect(error?.sqlState == "25006")
        }
    }

    @Test func reachableUntilTheServerStops() async throws {
        let server = try LocalPostgres.start(durable: false)
        defer { server.stop() }
        let url = try PostgresURL(server.url(), environment: [:])
        let database = try await PostgresGatewayDatabase(url: url)
        #expect(await database.isReachable())
        try server.stopServer(immediately: true)
        #expect(await database.isReachable() == false)
        await #expect(throws: PostgresEngineError.self) {
            try await database.read { try $0.fetchValue(Int.self, sql: "SELECT 1") }
        }
        try await database.close()
    }
}
