import Foundation
import GRDB
import MPOSTestSupport
import Testing

@testable import SandboxGateway

/// The PostgreSQL schema is the SQLite one: the same tables, columns (names, types,
/// nullability), indexes and triggers, and the triggers keep the same figures.
@Suite(
    .timeLimit(.minutes(2)), .enabled(if: LocalPostgres.isInstalled, PostgresTestServer.notInstalled), .postgresServer)
struct PostgresSchemaParityTests {
    /// A new in-memory SQLite database with every gateway migration.
    static func sqlite() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        GatewayMigrations.register(&migrator)
        try migrator.migrate(queue)
        return queue
    }

    /// PostgreSQL's name for the type SQLite declares.
    static func postgresType(_ sqliteType: String) -> String {
        switch sqliteType.uppercased() {
        case "INTEGER", "BOOLEAN": "bigint"
        case "TEXT", "DATETIME": "text"
        case "BLOB": "bytea"
        case "REAL", "DOUBLE": "double precision"
        default: "unmapped \(sqliteType)"
        }
    }

    struct Column: Hashable, CustomStringConvertible {
        let table: String, name: String, type: String, notNull: Bool
        var description: String { "\(table).\(name) \(type)\(notNull ? " NOT NULL" : "")" }
    }

    @Test func tablesAndColumnsMatchSQLite() async throws {
        let expected: Set<Column> = try await Self.sqlite().read { db in
            var columns = Set<Column>()
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%'")
            for table in tables {
                for info in try Row.fetchAll(db, sql: "SELECT * FROM pragma_table_info(?)", arguments: [table]) {
                    let isPrimaryKey = (info["pk"] as Int) > 0
                    columns.insert(
                        Column(
                            table: table.lowercased(), name: (info["name"] as String).lowercased(),
                            type: Self.postgresType(info["type"]), notNull: (info["notnull"] as Bool) || isPrimaryKey))
                }
            }
            return columns
        }
        try await PostgresTestServer.withDatabase { database in
            let actual = try await database.read { session in
                try session.fetchAll(
                    sql: """
                        SELECT table_name AS t, column_name AS c, data_type AS type, is_nullable AS nullable
                        FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> 'schema_migrations'
                        """, arguments: StatementArguments()
                ).map { Column(table: $0["t"], name: $0["c"], type: $0["type"], notNull: ($0["nullable"] as String) == "NO") }
            }
            // PostgreSQL's spelling of SQLite's implicit rowid, on the tables read in insertion order.
            let actualSet = Set(actual.filter { $0.name != PostgresMigrations.insertionOrderColumn })
            #expect(actual.contains { $0.table == "merchant" && $0.name == PostgresMigrations.insertionOrderColumn })
            #expect(expected.subtracting(actualSet).isEmpty, "missing on PostgreSQL: \(expected.subtracting(actualSet))")
            #expect(actualSet.subtracting(expected).isEmpty, "only on PostgreSQL: \(actualSet.subtracting(expected))")
        }
    }

    @Test func indexesAndTriggersMatchSQLite() async throws {
        let (indexes, triggers) = try await Self.sqlite().read { db in
            (
                Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL").map { $0.lowercased() }),
                Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger'"))
            )
        }
        try await PostgresTestServer.withDatabase { database in
            let (pgIndexes, pgTriggers) = try await database.read { session in
                (
                    // Indexes of their own, not those behind primary keys and unique constraints.
                    Set(try session.fetchValues(
                        String.self,
                        sql: """
                            SELECT indexname FROM pg_indexes i WHERE schemaname = 'public'
                              AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)
                            """)),
                    Set(try session.fetchValues(
                        String.self, sql: "SELECT DISTINCT trigger_name FROM information_schema.triggers WHERE trigger_schema = 'public'"))
                )
            }
            #expect(pgIndexes == indexes)
            #expect(pgTriggers == triggers)
        }
    }

    /// Ledger changes that move daily totals and card spend: new rows, a refund, a tip, a
    /// reversal, a deletion.
    static let ledgerChanges: [(String, StatementArguments)] = {
        let insert = """
            INSERT INTO payment_transaction (id, merchant_id, kind, status, amount_requested, amount_approved,
              amount_captured, amount_tip, amount_major, currency, card_fingerprint, created_at, updated_at)
            VALUES (?, 'm_1', ?, ?, ?, ?, ?, ?, 0, 'EUR', ?, ?, ?)
            """
        func row(_ id: String, _ kind: String, _ status: String, _ amount: Int, tip: Int = 0, card: String?, at: String) -> (String, StatementArguments) {
            let approved = status == "declined" ? 0 : amount
            return (insert, [id, kind, status, amount, approved, approved, tip, card, at, at])
        }
        return [
            row("t1", "sale", "approved", 1000, card: "fpA", at: "2026-01-05 10:00:00.000"),
            row("t2", "sale", "approved", 500, tip: 50, card: "fpA", at: "2026-01-05 11:00:00.000"),
            row("t3", "refund", "approved", 300, card: "fpA", at: "2026-01-05 12:00:00.000"),
            row("t4", "authorization", "approved", 700, card: "fpB", at: "2026-01-06 09:00:00.000"),
            row("t5", "sale", "declined", 200, card: "fpA", at: "2026-01-05 13:00:00.000"),
            row("t6", "cash", "approved", 250, card: nil, at: "2026-01-06 23:59:59.999"),
            ("UPDATE payment_transaction SET status = 'refunded', amount_refunded = 300 WHERE id = ?", ["t1"]),
            ("UPDATE payment_transaction SET amount_tip = 80 WHERE id = ?", ["t2"]),
            ("DELETE FROM payment_transaction WHERE id = ?", ["t5"]),
            ("UPDATE payment_transaction SET status = 'reversed' WHERE id = ?", ["t4"]),
            ("UPDATE payment_transaction SET amount_captured = 100 WHERE id = ?", ["t6"]),
        ]
    }()

    static let figures = [
        "SELECT * FROM payment_daily_total ORDER BY merchant_id, currency, day, status",
        "SELECT * FROM payment_card_spend ORDER BY card_fingerprint, day",
    ]

    @Test func triggersKeepTheSameFiguresAsSQLite() async throws {
        let expected: [[[String: DatabaseValue]]] = try await Self.sqlite().write { db in
            for (sql, arguments) in Self.ledgerChanges { try db.execute(sql: sql, arguments: arguments) }
            try DailyTotalChanges.apply(SQLiteSession(db))
            return try Self.figures.map { sql in
                try Row.fetchAll(db, sql: sql).map { row in
                    Dictionary(uniqueKeysWithValues: row.columnNames.map { ($0, row[$0] as DatabaseValue) })
                }
            }
        }
        #expect(expected[0].count == 3 && expected[1].count == 2, "the changes should leave figures to compare")
        try await PostgresTestServer.withDatabase { database in
            let actual: [[[String: DatabaseValue]]] = try await database.write { session in
                for (sql, arguments) in Self.ledgerChanges { try session.execute(sql: sql, arguments: arguments) }
                try DailyTotalChanges.apply(session)
                return try Self.figures.map { sql in
                    try session.fetchAll(sql: sql, arguments: StatementArguments()).map { row in
                        Dictionary(uniqueKeysWithValues: row.columnNames.map { ($0, row[$0] as DatabaseValue) })
                    }
                }
            }
            #expect(actual[0] == expected[0])
            #expect(actual[1] == expected[1])
        }
    }
}
