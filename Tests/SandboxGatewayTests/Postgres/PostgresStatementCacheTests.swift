import Testing

@testable import SandboxGateway

/// Which statements a connection prepares, under which names, and when it stops trying.
@Suite(.timeLimit(.minutes(1)))
struct PostgresStatementCacheTests {
    @Test func aStatementIsPreparedOnceAndRunByNameAfterwards() {
        var cache = PostgresStatementCache()
        let first = cache.plan(for: "SELECT 1", preparable: true)
        let second = cache.plan(for: "SELECT 1", preparable: true)
        guard case .named(let name, isNew: true) = first else {
            Issue.record("got \(first)")
            return
        }
        #expect(second == .named(name, isNew: false))
        #expect(cache.prepares == 1)
    }

    @Test func statementsNotWorthPreparingRunUnnamed() {
        var cache = PostgresStatementCache()
        #expect(cache.plan(for: "SAVEPOINT s", preparable: false) == .unnamed)
        #expect(cache.prepares == 0)
        for sql in [
            "SAVEPOINT a", "BEGIN", "COMMIT", "ROLLBACK TO SAVEPOINT a", "CREATE TABLE t (x INT)",
            "SET x = 1",
        ] {
            #expect(PostgresStatementCache.kind(of: sql) == .unprepared, "\(sql)")
        }
    }

    @Test func aStatementsKindSaysWhereWhatItChangedIsRead() {
        #expect(PostgresStatementCache.kind(of: "SELECT 1") == .rows)
        #expect(PostgresStatementCache.kind(of: "  insert into t values (1)") == .change)
        #expect(PostgresStatementCache.kind(of: "-- why\nUPDATE t SET x = 1") == .change)
        #expect(PostgresStatementCache.kind(of: "/* a */ (SELECT 1)") == .rows)
        #expect(PostgresStatementCache.kind(of: "UPDATE t SET x = 1 returning x") == .rows)
        #expect(PostgresStatementCache.kind(of: "DELETE FROM t RETURNING x") == .rows)
        #expect(PostgresStatementCache.kind(of: "WITH a AS (DELETE FROM t) SELECT 1") == .compound)
    }

    @Test func pastItsCapacityNewStatementsRunUnnamed() {
        var cache = PostgresStatementCache(capacity: 2)
        _ = cache.plan(for: "a", preparable: true)
        _ = cache.plan(for: "b", preparable: true)
        #expect(cache.plan(for: "c", preparable: true) == .unnamed)
        #expect(cache.plan(for: "a", preparable: true) == .named("mpos_1", isNew: false))
    }

    @Test func aFailedPreparationRetiresTheNameAndTwoMakeTheStatementUnnamed() {
        var cache = PostgresStatementCache()
        #expect(cache.plan(for: "a", preparable: true) == .named("mpos_1", isNew: true))
        cache.failed("a", sqlState: "42P01")
        #expect(cache.plan(for: "a", preparable: true) == .named("mpos_2", isNew: true))
        cache.failed("a", sqlState: "42P01")
        #expect(cache.plan(for: "a", preparable: true) == .unnamed)
    }

    @Test func aFailureOfARunThatWasNotThePreparationKeepsTheName() {
        var cache = PostgresStatementCache()
        _ = cache.plan(for: "a", preparable: true)
        cache.failed("a", sqlState: "23505")
        #expect(cache.plan(for: "a", preparable: true) == .named("mpos_1", isNew: false))
        cache.failed("a", sqlState: "42P01")
        #expect(cache.plan(for: "a", preparable: true) == .named("mpos_1", isNew: false))
        cache.failed("a", sqlState: "0A000")
        #expect(cache.plan(for: "a", preparable: true) == .named("mpos_2", isNew: true))
    }
}
