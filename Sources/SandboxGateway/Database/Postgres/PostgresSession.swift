import GRDB
import Logging
import PostgresNIO
import Synchronization

/// The seam's session on one PostgreSQL connection: each statement is sent and waited for
/// on the calling thread, which is always a thread of the backend's own lanes
/// (``PostgresLane``), never one of Swift concurrency's or of NIO's event loops.
///
/// Sendable so that its lane can hold it behind a lock; it is used by one thread at a time
/// (the lane's), and its little state sits behind an uncontended lock of its own.
final class PostgresSession: SQLSession, Sendable {
    let dialect = SQLDialect.postgres
    private let connection: PostgresConnection
    private let logger: Logger

    private struct State {
        /// Statements already translated, by their `?` text (the domain's statements are few).
        var translated: [String: PostgresPlaceholders] = [:]
        /// Makes savepoint names unique on this connection.
        var savepoints = 0
        var optimistic = false
    }
    private let state = Mutex(State())

    init(connection: PostgresConnection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    /// Whether the connection has closed.
    var isClosed: Bool { connection.isClosed }

    @discardableResult
    func execute(sql: String, arguments: StatementArguments) throws -> Int {
        try run(sql, arguments).metadata.rows ?? 0
    }

    func fetchAll(sql: String, arguments: StatementArguments) throws -> [Row] {
        try run(sql, arguments).rows.map { try PostgresValues.row($0) }
    }

    func fetchColumn(sql: String, arguments: StatementArguments) throws -> [DatabaseValue] {
        try run(sql, arguments).rows.map { row in
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

    /// Runs one statement and waits for all its rows.
    ///
    /// - Throws: ``PostgresEngineError``.
    private func run(_ sql: String, _ arguments: StatementArguments) throws -> PostgresQueryResult {
        let statement = state.withLock { state in
            if let known = state.translated[sql] { return known }
            let statement = PostgresPlaceholders(sql)
            if state.translated.count < 512 { state.translated[sql] = statement }
            return statement
        }
        let values = try PostgresValues.values(of: arguments)
        guard values.count == statement.count else {
            throw PostgresEngineError.client(
                "The statement has \(statement.count) placeholders but \(values.count) arguments: \(statement.sql)")
        }
        let query = PostgresQuery(unsafeSQL: statement.sql, binds: PostgresValues.bindings(values))
        do {
            return try connection.query(query, logger: logger).wait()
        } catch {
            throw PostgresEngineError(error, sql: statement.sql, values: values)
        }
    }

    /// Closes the connection.
    func close() {
        // Closing a connection that already failed has nothing left to report.
        try? connection.close().wait()
    }
}
