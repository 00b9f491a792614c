import GRDB

/// The SQLite side of ``SQLSession``: one GRDB connection inside a transaction or a read.
///
/// Every statement goes through the connection's statement cache, so the payment path, which
/// runs the same few statements for every authorization, prepares each once per connection.
/// One session serves a whole transaction (the group commit gives all the bodies of a group
/// the same one).
public final class SQLiteSession: SQLSession {
    /// The GRDB connection, for the SQLite implementation and its tests only.
    let db: Database

    /// Wraps `db`; valid only while the closure that received `db` runs.
    init(_ db: Database) { self.db = db }

    /// Always ``SQLDialect/sqlite``.
    public var dialect: SQLDialect { .sqlite }

    /// Runs one statement through the statement cache; returns the rows it changed.
    @discardableResult
    public func execute(sql: String, arguments: StatementArguments) throws -> Int {
        try db.cachedStatement(sql: sql).execute(arguments: arguments)
        return db.changesCount
    }

    /// Runs one query through the statement cache and returns all its rows.
    public func fetchAll(sql: String, arguments: StatementArguments) throws -> [Row] {
        try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// Runs one query through the statement cache and returns its first column.
    public func fetchColumn(sql: String, arguments: StatementArguments) throws -> [DatabaseValue] {
        try DatabaseValue.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// Runs `body` in a savepoint made with cached statements.
    public func inSavepoint<T>(_ body: () throws -> T) throws -> T {
        try db.inCachedSavepoint(body)
    }
}
