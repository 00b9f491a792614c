import Foundation
import GRDB
import MPOSTestSupport
import Testing

@testable import SandboxGateway

/// With prepared statements on, a connection prepares each query and change once and runs it
/// by name after that; what cannot be prepared, or fails to, still runs.
@Suite(
    .timeLimit(.minutes(2)), .enabled(if: LocalPostgres.isInstalled, PostgresTestServer.notInstalled),
    .postgresServer)
struct PostgresPreparedStatementTests {
    static let insert = "INSERT INTO sample (id, label) VALUES (?, ?)"

    /// Prepared statements on, and one connection for writes, so that every write below runs
    /// on the same one.
    static var oneWriter: PostgresGatewayDatabase.Configuration {
        var configuration = PostgresGatewayDatabase.Configuration()
        configuration.preparedStatementsPerConnection = 256
        configuration.writeConnections = 1
        return configuration
    }

    @Test func theSecondRunOfAStatementReusesItsPreparedStatement() async throws {
        try await PostgresTestServer.withDatabase(configuration: Self.oneWriter) { database in
            let (prepares, statements) = try await database.write { session in
                let session = try #require(session as? PostgresSession)
                let before = session.prepares
                try session.execute(sql: "CREATE TABLE sample (id BIGINT PRIMARY KEY, label TEXT)")
                for id in 1...3 {
                    try session.execute(sql: Self.insert, arguments: [id, "sale \(id)"])
                }
                // A unique violation is the statement's answer, not a reason to prepare it again.
                #expect(throws: PostgresEngineError.self) {
                    try session.inSavepoint {
                        try session.execute(sql: Self.insert, arguments: [1, "again"])
                    }
                }
                let statements = try session.fetchAll(sql: "SELECT 1 AS one").count
                return (session.prepares - before, statements)
            }
            #expect(prepares == 2, "the insert and the SELECT, each once")
            #expect(statements == 1)
            // The server's own account: one statement under one name, run four times.
            let runs = try await database.write { session in
                try session.fetchColumn(
                    sql: """
                        SELECT generic_plans + custom_plans AS runs FROM pg_prepared_statements
                        WHERE statement LIKE 'INSERT INTO sample (id, label) VALUES ($1, $2)%'
                        """, arguments: StatementArguments())
            }
            #expect(runs == [4.databaseValue])
        }
    }

    @Test func aStatementRunsTheSameWithANullWhereItHadAValue() async throws {
        try await PostgresTestServer.withDatabase(configuration: Self.oneWriter) { database in
            let labels = try await database.write { session in
                try session.execute(sql: "CREATE TABLE sample (id BIGINT PRIMARY KEY, label TEXT)")
                try session.execute(sql: Self.insert, arguments: [1, "one"])
                try session.execute(sql: Self.insert, arguments: [2, nil])
                try session.execute(sql: Self.insert, arguments: [3, "three"])
                return try session.fetchColumn(
                    sql: "SELECT label FROM sample ORDER BY id", arguments: StatementArguments())
            }
            #expect(labels == ["one".databaseValue, .null, "three".databaseValue])
        }
    }

    @Test func aStatementThatFailedToPrepareIsPreparedAgainOnceItCan() async throws {
        try await PostgresTestServer.withDatabase(configuration: Self.oneWriter) { database in
            let error = await #expect(throws: PostgresEngineError.self) {
                try await database.write { session in try session.fetchAll(sql: "SELECT id FROM later").count
                }
            }
            #expect(error?.sqlState == "42P01")
            let ids = try await database.write { session in
                try session.execute(sql: "CREATE TABLE later (id BIGINT)")
                try session.execute(sql: "INSERT INTO later (id) VALUES (?)", arguments: [7])
                return try session.fetchColumn(sql: "SELECT id FROM later", arguments: StatementArguments())
            }
            #expect(ids == [7.databaseValue])
        }
    }

    @Test func aStatementWhoseTableChangedShapeIsPreparedAgain() async throws {
        try await PostgresTestServer.withDatabase(configuration: Self.oneWriter) { database in
            try await database.write { session in
                try session.execute(sql: "CREATE TABLE sample (id BIGINT PRIMARY KEY, label TEXT)")
                try session.execute(sql: Self.insert, arguments: [1, "one"])
                _ = try session.fetchAll(sql: "SELECT * FROM sample")
            }
            try await database.write { session in
                try session.execute(sql: "ALTER TABLE sample ADD COLUMN note TEXT")
            }
            // The first run after the change meets the stale plan; the next prepares afresh.
            _ = try? await database.write { session in try session.fetchAll(sql: "SELECT * FROM sample").count
            }
            let hasNote = try await database.write { session in
                try session.fetchAll(sql: "SELECT * FROM sample").first?.hasColumn("note")
            }
            #expect(hasNote == true)
        }
    }

    @Test func byDefaultNothingIsPrepared() async throws {
        try await PostgresTestServer.withDatabase { database in
            let prepares = try await database.write { session in
                let session = try #require(session as? PostgresSession)
                try session.execute(sql: "CREATE TABLE sample (id BIGINT PRIMARY KEY, label TEXT)")
                try session.execute(sql: Self.insert, arguments: [1, "one"])
                try session.execute(sql: Self.insert, arguments: [2, "two"])
                return session.prepares
            }
            #expect(prepares == 0)
        }
    }

    @Test func aLostConnectionTakesItsStatementsWithIt() async throws {
        try await PostgresTestServer.withDatabase(configuration: Self.oneWriter) { database in
            try await database.write { session in
                try session.execute(sql: "CREATE TABLE sample (id BIGINT PRIMARY KEY, label TEXT)")
                try session.execute(sql: Self.insert, arguments: [1, "one"])
            }
            _ = try? await database.write { session in
                try session.execute(sql: "SELECT pg_terminate_backend(pg_backend_pid())")
            }
            let (count, prepares) = try await database.write { session in
                let session = try #require(session as? PostgresSession)
                try session.execute(sql: Self.insert, arguments: [2, "two"])
                return (
                    try session.fetchColumn(
                        sql: "SELECT count(*) FROM sample", arguments: StatementArguments()), session.prepares
                )
            }
            #expect(count == [2.databaseValue])
            #expect(prepares == 2, "a new connection prepares the insert and the count afresh")
        }
    }
}
