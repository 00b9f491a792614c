import Foundation
import GRDB
import MPOSTestSupport
import Testing

@testable import SandboxGateway

/// Values keep GRDB's representation through PostgreSQL, and the seam's statements
/// (savepoints, errors) behave on PostgreSQL as they do on SQLite.
@Suite(
    .timeLimit(.minutes(2)), .enabled(if: LocalPostgres.isInstalled, PostgresTestServer.notInstalled), .postgresServer)
struct PostgresSessionTests {
    static let table = """
        CREATE TABLE sample (
          id BIGINT NOT NULL PRIMARY KEY, number BIGINT, real DOUBLE PRECISION, label TEXT, bytes BYTEA,
          at TEXT, flag BIGINT
        )
        """

    @Test func everyStorageClassRoundTripsThroughGRDBValues() async throws {
        try await PostgresTestServer.withDatabase { database in
            let seed = SplitMix64.testSeed(environment: ProcessInfo.processInfo.environment)
            var generator = SplitMix64(seed: seed)
            let number = Int64.random(in: .min ... .max, using: &generator)
            let real = Double.random(in: -1e9...1e9, using: &generator)
            let bytes = Data((0..<64).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let label = "Zürich ☕ \(number)"
            let at = Date(timeIntervalSince1970: 1_767_225_600.25)
            try await database.write { session in
                try session.execute(sql: Self.table)
                try session.execute(
                    sql: "INSERT INTO sample (id, number, real, label, bytes, at, flag) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    arguments: [1, number, real, label, bytes, at, true])
                try session.execute(sql: "INSERT INTO sample (id) VALUES (?)", arguments: [2])
                let row = try session.fetchAll(sql: "SELECT * FROM sample ORDER BY id", arguments: StatementArguments())
                #expect(row.count == 2, "seed \(seed)")
                #expect(row[0]["number"] == number, "seed \(seed)")
                #expect(row[0]["real"] == real, "seed \(seed)")
                #expect(row[0]["label"] == label)
                #expect(row[0]["bytes"] == bytes, "seed \(seed)")
                #expect(row[0]["at"] == at)
                #expect(row[0]["at"] == "2026-01-01 00:00:00.250")
                #expect(row[0]["flag"] == true)
                #expect(row[0]["flag"] == 1)
                for column in ["number", "real", "label", "bytes", "at", "flag"] {
                    #expect((row[1][column] as DatabaseValue).isNull, "\(column) of the second row")
                }
            }
        }
    }

    @Test func computedColumnsKeepSQLiteLikeValues() async throws {
        try await PostgresTestServer.withDatabase { database in
            try await database.read { session in
                let row = try session.fetchOne(
                    sql: """
                        SELECT SUM(x) AS whole, AVG(x) AS fraction, 1 = 1 AS yes, COUNT(*) AS n,
                               CAST(? AS int4) AS small, DATE '2026-03-04' AS day
                        FROM (VALUES (1::bigint), (2::bigint)) AS v(x)
                        """, arguments: [7])
                let values = try #require(row)
                #expect(values["whole"] as DatabaseValue == 3.databaseValue)
                #expect(values["fraction"] as DatabaseValue == 1.5.databaseValue)
                #expect(values["yes"] as DatabaseValue == 1.databaseValue)
                #expect(values["n"] == 2)
                #expect(values["small"] as DatabaseValue == 7.databaseValue)
                #expect(values["day"] == "2026-03-04")
            }
        }
    }

    @Test func fetchColumnReturnsTheFirstColumnInOrderWithNulls() async throws {
        try await PostgresTestServer.withDatabase { database in
            let values = try await database.read { session in
                try session.fetchColumn(
                    sql: "SELECT v, 'other' AS b FROM (VALUES (3), (NULL), (1)) AS t(v) ORDER BY v NULLS LAST",
                    arguments: StatementArguments())
            }
            #expect(values == [1.databaseValue, 3.databaseValue, .null])
        }
    }

    @Test func executeReturnsTheRowsChanged() async throws {
        try await PostgresTestServer.withDatabase { database in
            let (inserted, updated, deleted) = try await database.write { session in
                try session.execute(sql: Self.table)
                let inserted = try session.execute(
                    sql: "INSERT INTO sample (id, number) VALUES (?, ?), (?, ?), (?, ?)", arguments: [1, 10, 2, 20, 3, 30])
                let updated = try session.execute(sql: "UPDATE sample SET number = number + 1 WHERE number >= ?", arguments: [20])
                let deleted = try session.execute(sql: "DELETE FROM sample WHERE id = ?", arguments: [99])
                return (inserted, updated, deleted)
            }
            #expect(inserted == 3)
            #expect(updated == 2)
            #expect(deleted == 0)
        }
    }

    @Test func uniqueViolationIsRecognisedBySQLSessionError() async throws {
        try await PostgresTestServer.withDatabase { database in
            try await database.write { session in
                try session.execute(sql: Self.table)
                try session.execute(sql: "INSERT INTO sample (id) VALUES (?)", arguments: [1])
            }
            let error = await #expect(throws: PostgresEngineError.self) {
                try await database.write { session in
                    try session.execute(sql: "INSERT INTO sample (id) VALUES (?)", arguments: [1])
                }
            }
            #expect(error?.sqlState == "23505")
            #expect(error.map { SQLSessionError.isUniqueViolation($0) } == true)
            #expect(error?.constraint == "sample_pkey")
        }
    }

    @Test func otherErrorsAreNotUniqueViolations() async throws {
        try await PostgresTestServer.withDatabase { database in
            let error = await #expect(throws: PostgresEngineError.self) {
                try await database.read { session in try session.execute(sql: "SELECT * FROM no_such_table") }
            }
            #expect(error?.sqlState == "42P01")
            #expect(error.map { SQLSessionError.isUniqueViolation($0) } == false)
        }
    }

    @Test func errorDescriptionLeavesOutBoundValues() async throws {
        try await PostgresTestServer.withDatabase { database in
            let secret = "4111-not-a-number-secret"
            let error = await #expect(throws: PostgresEngineError.self) {
                try await database.read { session in
                    try session.fetchAll(sql: "SELECT CAST(? AS bigint) AS n", arguments: [secret]).count
                }
            }
            let description = try #require(error).description
            #expect(error?.sqlState == "22P02")
            #expect(!description.contains(secret))
            #expect(description.contains("$1"))
        }
    }

    @Test func savepointRollbackKeepsTheRestOfTheTransaction() async throws {
        try await PostgresTestServer.withDatabase { database in
            struct Refused: Error {}
            try await database.write { session in
                try session.execute(sql: Self.table)
                try session.execute(sql: "INSERT INTO sample (id, label) VALUES (?, ?)", arguments: [1, "before"])
                // A statement error inside the savepoint: the transaction goes on after it.
                #expect(throws: PostgresEngineError.self) {
                    try session.inSavepoint {
                        try session.execute(sql: "INSERT INTO sample (id, label) VALUES (?, ?)", arguments: [2, "kept?"])
                        try session.execute(sql: "INSERT INTO sample (id) VALUES (?)", arguments: [1])
                    }
                }
                // A body that throws on its own: its changes go too.
                #expect(throws: Refused.self) {
                    try session.inSavepoint {
                        try session.execute(sql: "INSERT INTO sample (id, label) VALUES (?, ?)", arguments: [3, "thrown"])
                        throw Refused()
                    }
                }
                let kept = try session.inSavepoint {
                    try session.execute(sql: "INSERT INTO sample (id, label) VALUES (?, ?)", arguments: [4, "after"])
                }
                #expect(kept == 1)
            }
            let labels = try await database.read { session in
                try session.fetchValues(String.self, sql: "SELECT label FROM sample ORDER BY id")
            }
            #expect(labels == ["before", "after"])
        }
    }

    @Test func aWriteThatThrowsLeavesNothing() async throws {
        try await PostgresTestServer.withDatabase { database in
            struct Refused: Error {}
            _ = try await database.write { session in try session.execute(sql: Self.table) }
            await #expect(throws: Refused.self) {
                try await database.write { session in
                    try session.execute(sql: "INSERT INTO sample (id) VALUES (?)", arguments: [1])
                    throw Refused()
                }
            }
            let count = try await database.read { session in
                try session.fetchValue(Int.self, sql: "SELECT COUNT(*) FROM sample")
            }
            #expect(count == 0)
        }
    }

    @Test func argumentCountMismatchIsATypedError() async throws {
        try await PostgresTestServer.withDatabase { database in
            let error = await #expect(throws: PostgresEngineError.self) {
                try await database.read { session in
                    try session.fetchAll(sql: "SELECT ? AS a, ? AS b", arguments: [1]).count
                }
            }
            #expect(error?.sqlState == nil)
        }
    }
}
