import Foundation
import GRDB

/// Which SQL a gateway database speaks, for the few statements the two engines write
/// differently (a scalar maximum, date arithmetic, JSON building).
public enum SQLDialect: String, Sendable, CaseIterable {
    /// SQLite, through GRDB: one process on one file.
    case sqlite
    /// PostgreSQL, through PostgresNIO: several gateway instances on one database.
    case postgres
}

/// One database connection as the gateway's domain code uses it: inside a write's
/// transaction, or on a read's snapshot.
///
/// The storage seam of the gateway: every repository (accounts, idempotency, ledger,
/// replay guard, updates, webhooks, inventory, reports) runs its statements through this
/// protocol, so the same code runs on SQLite and on PostgreSQL.
///
/// Statements use `?` placeholders (positional only) and GRDB's `StatementArguments`;
/// rows come back as GRDB `Row`s on both engines, so `row["column"]` and
/// `FetchableRecord` decoding work unchanged. Values keep the representation GRDB gives
/// them: dates are `YYYY-MM-DD HH:MM:SS.SSS` text in UTC, booleans are integers 0 and 1,
/// blobs are bytes.
///
/// A session is used by one thread at a time and only during the closure that received it.
public protocol SQLSession: AnyObject {
    /// The SQL this session speaks.
    var dialect: SQLDialect { get }

    /// Runs one statement and returns how many rows it inserted, updated or deleted.
    ///
    /// - Throws: the engine's error; a unique-key violation is recognised by
    ///   ``SQLSessionError/isUniqueViolation(_:)``.
    @discardableResult
    func execute(sql: String, arguments: StatementArguments) throws -> Int

    /// Runs one query and returns all its rows.
    ///
    /// Read a row's values by column name (alias computed columns with `AS`), never by
    /// position: a PostgreSQL row keeps its names but not their order.
    func fetchAll(sql: String, arguments: StatementArguments) throws -> [Row]

    /// Runs one query and returns the first column of every row, NULLs included.
    func fetchColumn(sql: String, arguments: StatementArguments) throws -> [DatabaseValue]

    /// Runs `body` in a savepoint: when it throws, what it changed is rolled back and the
    /// error is rethrown; the enclosing transaction goes on.
    func inSavepoint<T>(_ body: () throws -> T) throws -> T

    /// Runs the change `first`, then the change `second` only when `first` changed a row, and
    /// returns how many rows each changed (`second` 0 when it did not run).
    ///
    /// `second` builds the second statement around a condition, which it must put in the
    /// `WHERE` of its `SELECT` (`INSERT INTO t (a, b) SELECT ?, ? WHERE \(condition) ON CONFLICT …`);
    /// neither statement may end in `RETURNING`. An engine may run both as one statement, one
    /// round trip instead of two (PostgreSQL, where the condition reads the first's changed
    /// rows); the default runs them one after the other, the condition always true.
    func execute(
        sql first: String, arguments firstArguments: StatementArguments,
        thenIfChanged second: (_ condition: String) -> String, arguments secondArguments: StatementArguments
    ) throws -> (first: Int, second: Int)
}

/// Classifies the errors the two engines throw.
public enum SQLSessionError {
    /// Whether `error` is a unique-key or primary-key violation (SQLite's
    /// `SQLITE_CONSTRAINT_UNIQUE`/`PRIMARYKEY`, PostgreSQL's `23505`).
    public static func isUniqueViolation(_ error: any Error) -> Bool {
        if let error = error as? DatabaseError {
            return error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE
                || error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY
        }
        if let error = error as? any SQLEngineError { return error.sqlState == "23505" }
        return false
    }
}

/// An error of a database engine that carries an SQLSTATE (PostgreSQL's errors do).
public protocol SQLEngineError: Error {
    /// The five-character SQLSTATE, such as `23505` for a unique violation.
    var sqlState: String? { get }
}

extension SQLSession {
    /// Runs `first`, then `second` when `first` changed a row: one statement after the other
    /// (``SQLSession/execute(sql:arguments:thenIfChanged:arguments:)``).
    public func execute(
        sql first: String, arguments firstArguments: StatementArguments,
        thenIfChanged second: (_ condition: String) -> String, arguments secondArguments: StatementArguments
    ) throws -> (first: Int, second: Int) {
        let changed = try execute(sql: first, arguments: firstArguments)
        guard changed > 0 else { return (changed, 0) }
        return (changed, try execute(sql: second("1 = 1"), arguments: secondArguments))
    }

    /// Runs one statement without arguments.
    @discardableResult
    public func execute(sql: String) throws -> Int { try execute(sql: sql, arguments: StatementArguments()) }

    /// Runs one query without arguments and returns all its rows.
    public func fetchAll(sql: String) throws -> [Row] { try fetchAll(sql: sql, arguments: StatementArguments()) }

    /// Runs one query and returns its first row, or nil.
    public func fetchOne(sql: String, arguments: StatementArguments = StatementArguments()) throws -> Row? {
        try fetchAll(sql: sql, arguments: arguments).first
    }

    /// Runs one query and returns the first column of its first row, or nil when there is
    /// no row or the value is NULL.
    public func fetchValue<Value: DatabaseValueConvertible>(
        _ type: Value.Type, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> Value? {
        guard let value = try fetchColumn(sql: sql, arguments: arguments).first else { return nil }
        return Value.fromDatabaseValue(value)
    }

    /// Runs one query and returns the first column of every row (NULLs left out).
    public func fetchValues<Value: DatabaseValueConvertible>(
        _ type: Value.Type, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> [Value] {
        try fetchColumn(sql: sql, arguments: arguments).compactMap { Value.fromDatabaseValue($0) }
    }

    /// Runs one query and decodes every row as a record.
    public func fetchAll<Record: FetchableRecord>(
        _ type: Record.Type, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> [Record] {
        try fetchAll(sql: sql, arguments: arguments).map { try Record(row: $0) }
    }

    /// Runs one query and decodes its first row as a record, or returns nil.
    public func fetchOne<Record: FetchableRecord>(
        _ type: Record.Type, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> Record? {
        try fetchOne(sql: sql, arguments: arguments).map { try Record(row: $0) }
    }

    /// Inserts `record` into its table, every column its encoding gives.
    public func insert<Record: EncodableRecord & TableRecord>(_ record: Record) throws {
        let values = try record.databaseDictionary.sorted { $0.key < $1.key }
        let columns = values.map { "\"\($0.key)\"" }.joined(separator: ", ")
        let marks = Array(repeating: "?", count: values.count).joined(separator: ", ")
        try execute(
            sql: "INSERT INTO \"\(Record.databaseTableName)\" (\(columns)) VALUES (\(marks))",
            arguments: StatementArguments(values.map(\.value)))
    }

    /// Updates the row of `record` found by its `key` columns with every other column its
    /// encoding gives; returns how many rows changed (0 when there is none).
    @discardableResult
    public func update<Record: EncodableRecord & TableRecord>(_ record: Record, key: [String]) throws -> Int {
        let values = try record.databaseDictionary
        let assigned = values.filter { !key.contains($0.key) }.sorted { $0.key < $1.key }
        let sets = assigned.map { "\"\($0.key)\" = ?" }.joined(separator: ", ")
        let wheres = key.map { "\"\($0)\" = ?" }.joined(separator: " AND ")
        let keyValues = key.map { values[$0] ?? .null }
        return try execute(
            sql: "UPDATE \"\(Record.databaseTableName)\" SET \(sets) WHERE \(wheres)",
            arguments: StatementArguments(assigned.map(\.value) + keyValues))
    }
}

/// A gateway database: where reads run, and how writes commit.
///
/// ``GatewayStore`` holds one; `SQLiteGatewayDatabase` (GRDB, WAL, group commit on one
/// writer) and `PostgresGatewayDatabase` (PostgresNIO, several instances on one database)
/// implement it.
public protocol GatewayDatabase: Sendable {
    /// The SQL this database speaks.
    var dialect: SQLDialect { get }

    /// Whether other gateway instances may work on this database at the same time (PostgreSQL),
    /// rather than this process alone (a SQLite file): what one instance caches or claims, another
    /// may change or hold.
    var isSharedByInstances: Bool { get }

    /// Whether the database runs its writes one at a time (SQLite's one writer), so that what a
    /// write reads stays true until it commits: a check-then-insert needs no claim or lock.
    var writesOneAtATime: Bool { get }

    /// Whether the database holds resources of its own (connections and their threads) that
    /// the gateway must close when it stops; a SQLite pool is left to its last reader instead,
    /// as tools may still read the file.
    var closesWithTheGateway: Bool { get }

    /// Runs `body` on a consistent snapshot of the database and returns its result.
    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T

    /// Runs `body` in a transaction of its own and returns its result once the transaction
    /// is durably committed; when `body` throws, nothing it did is kept.
    @discardableResult
    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T

    /// The writer that runs concurrent writes together in shared commits (each body in a
    /// savepoint of its own): the payment path's writer.
    var groupCommitWriter: any LedgerWriter { get }

    /// The gateway's instance id (`gw_` and 16 hex digits), created with the database and
    /// kept in it; every instance on one database shares it.
    var instanceID: String { get }

    /// Whether the database answers a trivial query now (for the health endpoint).
    func isReachable() async -> Bool

    /// Closes the connections; in-flight work finishes first.
    func close() async throws
}
