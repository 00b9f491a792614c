import GRDB
import Logging
import PostgresNIO
import Synchronization

/// The seam's session on one PostgreSQL connection: each statement is sent and waited for
/// on the calling thread, which is always a thread of the backend's own lanes
/// (``PostgresLane``), never one of Swift concurrency's or of NIO's event loops.
///
/// With prepared statements on, queries and changes to rows are prepared once per connection
/// and executed by name after that (``PostgresStatementCache``); transaction control and
/// schema changes always run unnamed.
///
/// Sendable so that its lane can hold it behind a lock; it is used by one thread at a time
/// (the lane's), and its little state sits behind an uncontended lock of its own.
final class PostgresSession: SQLSession, Sendable {
    let dialect = SQLDialect.postgres
    private let connection: PostgresConnection
    private let logger: Logger

    private struct State {
        /// Statements already translated, and their kinds, by their `?` text (the domain's
        /// statements are few).
        var translated: [String: (PostgresPlaceholders, PostgresStatementCache.Kind)] = [:]
        /// Makes savepoint names unique on this connection.
        var savepoints = 0
        var optimistic = false
        var statements: PostgresStatementCache
    }
    private let state: Mutex<State>

    /// A session on `connection` that prepares up to `preparedStatements` statements.
    init(connection: PostgresConnection, logger: Logger, preparedStatements: Int) {
        self.connection = connection
        self.logger = logger
        state = Mutex(State(statements: PostgresStatementCache(capacity: preparedStatements)))
    }

    /// Whether the connection has closed.
    var isClosed: Bool { connection.isClosed }

    /// How many statements this session sent to the server to be prepared.
    var prepares: Int { state.withLock { $0.statements.prepares } }

    @discardableResult
    func execute(sql: String, arguments: StatementArguments) throws -> Int {
        switch try run(sql, arguments, wanting: .changes) {
        case .changes(let count): count
        case .rows(let rows): rows.count
        }
    }

    func fetchAll(sql: String, arguments: StatementArguments) throws -> [Row] {
        try rows(sql, arguments).map { try PostgresValues.row($0) }
    }

    func fetchColumn(sql: String, arguments: StatementArguments) throws -> [DatabaseValue] {
        try rows(sql, arguments).map { row in
            guard let cell = row.first else { return .null }
            return try PostgresValues.databaseValue(cell)
        }
    }

    /// Whether savepoints are left out: set by the group writer for a group's first attempt,
    /// when every body is expected to succeed. A body that throws then ends the attempt with
    /// ``SavepointsNeeded`` (its changes cannot be undone alone), and the writer runs the
    /// group again with savepoints.
    var optimistic: Bool {
        get { state.withLock { $0.optimistic } }
        set { state.withLock { $0.optimistic = newValue } }
    }

    /// Thrown by ``inSavepoint(_:)`` in ``optimistic`` mode when its body fails.
    struct SavepointsNeeded: Error {}

    func inSavepoint<T>(_ body: () throws -> T) throws -> T {
        if optimistic {
            do {
                return try body()
            } catch {
                throw SavepointsNeeded()
            }
        }
        let number = state.withLock { state in
            state.savepoints += 1
            return state.savepoints
        }
        let name = "mpos_savepoint_\(number)"
        try execute(sql: "SAVEPOINT \(name)")
        let result: T
        do {
            result = try body()
        } catch {
            // Also ends the transaction's aborted state, so the enclosing transaction goes on.
            // The body's error is what the caller hears; if these fail, the connection is broken and the group's commit fails for everyone.
            _ = try? execute(sql: "ROLLBACK TO SAVEPOINT \(name)")
            _ = try? execute(sql: "RELEASE SAVEPOINT \(name)")
            throw error
        }
        try execute(sql: "RELEASE SAVEPOINT \(name)")
        return result
    }

    /// Both changes in one statement, one round trip: a `WITH` whose second change runs only
    /// when the first returned a row. PostgreSQL runs the first before the second reads it; the
    /// second's `ON CONFLICT … DO UPDATE` still meets the conflicting row's latest version.
    func execute(
        sql first: String, arguments firstArguments: StatementArguments,
        thenIfChanged second: (_ condition: String) -> String, arguments secondArguments: StatementArguments
    ) throws -> (first: Int, second: Int) {
        let sql = """
            WITH first_changed AS (\(first) RETURNING 1),
            second_changed AS (\(second("EXISTS (SELECT 1 FROM first_changed)")) RETURNING 1)
            SELECT (SELECT COUNT(*) FROM first_changed) AS first, (SELECT COUNT(*) FROM second_changed) AS second
            """
        guard let row = try fetchAll(sql: sql, arguments: firstArguments + secondArguments).first else {
            throw PostgresEngineError.client("A pair of changes answered no row: \(sql)")
        }
        return (row["first"], row["second"])
    }

    /// What a statement answered: its rows, or how many rows it changed.
    private enum Answer {
        case rows([PostgresRow])
        case changes(Int)
    }

    /// Which answer the caller wants.
    private enum Wanted {
        case rows, changes
    }

    private func rows(_ sql: String, _ arguments: StatementArguments) throws -> [PostgresRow] {
        switch try run(sql, arguments, wanting: .rows) {
        case .rows(let rows): rows
        case .changes: []
        }
    }

    /// Runs one statement and waits for its whole answer: its rows, or how many rows it changed.
    ///
    /// - Throws: ``PostgresEngineError``.
    private func run(_ sql: String, _ arguments: StatementArguments, wanting wanted: Wanted) throws -> Answer
    {
        let values = try PostgresValues.values(of: arguments)
        let (statement, kind, plan, key) = state.withLock { state in
            let (statement, kind) =
                state.translated[sql] ?? (PostgresPlaceholders(sql), PostgresStatementCache.kind(of: sql))
            if state.translated.count < 512 { state.translated[sql] = (statement, kind) }
            // Asked for what it changed, a `WITH` runs unnamed: its tag and its rows may both differ from that.
            let preparable = kind == .rows || kind == .change || (kind == .compound && wanted == .rows)
            let key = values.reduce(into: sql + (wanted == .changes ? "\u{0}c" : "\u{0}r")) {
                $0.append(PostgresValues.kind(of: $1))
            }
            return (statement, kind, state.statements.plan(for: key, preparable: preparable), key)
        }
        guard values.count == statement.count else {
            throw PostgresEngineError.client(
                "The statement has \(statement.count) placeholders but \(values.count) arguments: \(statement.sql)"
            )
        }
        let bindings = PostgresValues.bindings(values)
        do {
            guard case .named(let name, _) = plan else {
                let result = try connection.query(
                    PostgresQuery(unsafeSQL: statement.sql, binds: bindings), logger: logger
                )
                .wait()
                if wanted == .changes { return .changes(result.metadata.rows ?? 0) }
                return .rows(result.rows)
            }
            let query = PostgresNamedStatement.Query(bindings: bindings)
            if wanted == .changes {
                // PostgresNIO 1.33 cannot read a prepared statement's command tag (its `Row == ()`
                // execute traps), so a plain change returns a row per row it changed, which
                // are counted as they stream in.
                let text = kind == .change ? statement.sql + "\nRETURNING 1" : statement.sql
                return .changes(
                    try executeNamed(
                        PostgresNamedStatement.Text(name: name, sql: text), query, keepingRows: false
                    ).count)
            }
            return .rows(
                try executeNamed(
                    PostgresNamedStatement.Text(name: name, sql: statement.sql), query, keepingRows: true
                ).rows)
        } catch {
            let failure = PostgresEngineError(error, sql: statement.sql, values: values)
            if case .named = plan { state.withLock { $0.statements.failed(key, sqlState: failure.sqlState) } }
            throw failure
        }
    }

    /// Runs the named statement `text` (PostgresNIO prepares it on first use) and waits for
    /// its rows: how many, and the rows themselves when `keepingRows`.
    private func executeNamed(
        _ text: PostgresNamedStatement.Text, _ query: PostgresNamedStatement.Query, keepingRows: Bool
    ) throws -> (rows: [PostgresRow], count: Int) {
        let (connection, logger) = (connection, logger)
        return try connection.eventLoop.makeFutureWithTask {
            try await PostgresNamedStatement.$running.withValue(text) {
                var rows: [PostgresRow] = []
                var count = 0
                for try await row in try await connection.execute(query, logger: logger) {
                    count += 1
                    if keepingRows { rows.append(row) }
                }
                return (rows, count)
            }
        }.wait()
    }

    /// Closes the connection.
    func close() {
        // Closing a connection that already failed has nothing left to report.
        try? connection.close().wait()
    }
}
