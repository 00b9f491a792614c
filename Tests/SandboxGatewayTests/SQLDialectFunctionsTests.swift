import Foundation
import Testing

@testable import SandboxGateway

/// The SQL the two engines write differently: each helper's SQLite spelling gives SQLite the
/// answer the domain code expects, and its PostgreSQL spelling is PostgreSQL's function.
@Suite(.timeLimit(.minutes(1))) struct SQLDialectFunctionsTests {
    /// The text SQLite returns for `expression`.
    static func sqlite(_ expression: String) async throws -> String? {
        let directory = GatewayStoreTests.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try SQLiteGatewayDatabase(path: directory.appendingPathComponent("gateway.sqlite").path)
        defer { try? database.pool.close() }
        return try await database.read { db in
            try db.fetchValue(String.self, sql: "SELECT CAST(\(expression) AS TEXT) AS answer")
        }
    }

    @Test func greatestAndLeastAreScalarMaximumAndMinimum() async throws {
        #expect(try await Self.sqlite(SQLDialect.sqlite.greatest("3", "8")) == "8")
        #expect(try await Self.sqlite(SQLDialect.sqlite.least("3", "8")) == "3")
        #expect(SQLDialect.postgres.greatest("a", "b") == "GREATEST(a, b)")
        #expect(SQLDialect.postgres.least("a", "b") == "LEAST(a, b)")
    }

    @Test func suffixTakesTheLastCharacters() async throws {
        #expect(try await Self.sqlite(SQLDialect.sqlite.suffix("'411111******1234'", 4)) == "1234")
        #expect(SQLDialect.postgres.suffix("masked_pan", 4) == "RIGHT(masked_pan, 4)")
    }

    @Test func blobRangeCountsBytesFromOne() async throws {
        let range = SQLDialect.sqlite.blobRange("CAST('abcdef' AS BLOB)", from: "2", length: "3")
        #expect(try await Self.sqlite(range) == "bcd")
        #expect(
            SQLDialect.postgres.blobRange("content", from: "?", length: "?")
                == "substring(content FROM CAST(? AS INTEGER) FOR CAST(? AS INTEGER))")
    }

    @Test func nextDayCrossesMonthsAndYears() async throws {
        #expect(try await Self.sqlite(SQLDialect.sqlite.nextDay("'2024-02-28'")) == "2024-02-29")
        #expect(try await Self.sqlite(SQLDialect.sqlite.nextDay("'2023-12-31'")) == "2024-01-01")
        #expect(SQLDialect.postgres.nextDay("d").contains("CAST(d AS date) + 1"))
    }

    @Test func quarterStartIsTheFirstDayOfTheQuartersFirstMonth() async throws {
        let days = ["2024-01-15": "2024-01-01", "2024-06-30": "2024-04-01", "2024-11-02": "2024-10-01"]
        for (day, start) in days {
            #expect(try await Self.sqlite(SQLDialect.sqlite.quarterStart("'\(day)'")) == start, "\(day)")
        }
        #expect(SQLDialect.postgres.quarterStart("day").contains("lpad("))
    }

    @Test func jsonObjectAndGroupConcatBuildText() async throws {
        let object = SQLDialect.sqlite.jsonObject([("a", "1"), ("b", "'x'")])
        #expect(try await Self.sqlite(object) == #"{"a":1,"b":"x"}"#)
        #expect(SQLDialect.postgres.jsonObject([("a", "1")]) == "json_build_object('a', 1)::text")
        let concat = SQLDialect.sqlite.groupConcat("v", separator: "','")
        #expect(try await Self.sqlite("(SELECT \(concat) FROM (SELECT 'p' AS v UNION ALL SELECT 'q'))") == "p,q")
        #expect(SQLDialect.postgres.groupConcat("v", separator: "','") == "STRING_AGG(v, ',')")
    }

    @Test func rowOrderIsSQLitesRowid() {
        #expect(SQLDialect.sqlite.rowOrder == "rowid")
        #expect(SQLDialect.postgres.rowOrder == "row_seq")
    }
}
