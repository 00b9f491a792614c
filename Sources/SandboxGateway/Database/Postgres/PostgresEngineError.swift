import GRDB
import PostgresNIO

/// An error of the PostgreSQL backend: the server's refusal of a statement (with its
/// SQLSTATE, ``SQLSessionError/isUniqueViolation(_:)`` recognises `23505`), a lost
/// connection, or a statement the backend could not send.
///
/// The description holds the server's message and the statement with its `$n`
/// placeholders, never the values bound to it: the server's detail line (which repeats key
/// values) is left out, and a bound text the message repeats is cut out of it.
public struct PostgresEngineError: SQLEngineError, CustomStringConvertible {
    /// The SQLSTATE the server sent, or nil when the statement never got an answer.
    public let sqlState: String?
    /// The server's message (bound values removed), or what went wrong on the client's side.
    public let message: String
    /// The constraint the statement violated, when the server named one.
    public let constraint: String?
    /// The statement, with placeholders, when there was one.
    public let sql: String?
    /// Whether the connection is unusable after this error (closed, refused, broken).
    let connectionLost: Bool

    /// What went wrong, for the developer.
    public var description: String {
        var text = "PostgreSQL error"
        if let sqlState { text += " \(sqlState)" }
        text += ": \(message)"
        if let sql { text += " (statement: \(sql))" }
        return text
    }

    /// Whether re-running the transaction may succeed: a serialization failure (`40001`) or
    /// a deadlock (`40P01`).
    var isRetryable: Bool { sqlState == "40001" || sqlState == "40P01" }

    /// A failure on the client's side, before any statement reached the server.
    static func client(_ message: String) -> Self {
        Self(sqlState: nil, message: message, constraint: nil, sql: nil, connectionLost: false)
    }

    /// Wraps what PostgresNIO threw for `sql`, removing from the message any bound text
    /// among `values`.
    init(_ error: any Error, sql: String?, values: [DatabaseValue] = []) {
        guard let error = error as? PSQLError else {
            if let error = error as? PostgresEngineError {
                self = error
                return
            }
            self.init(sqlState: nil, message: "\(type(of: error))", constraint: nil, sql: sql, connectionLost: false)
            return
        }
        if error.code == .server, let info = error.serverInfo {
            var message = info[.message] ?? "the server refused the statement"
            for value in values {
                if case .string(let text) = value.storage, text.count >= 3 {
                    message = message.replacingOccurrences(of: text, with: "…")
                }
            }
            self.init(
                sqlState: info[.sqlState], message: message, constraint: info[.constraintName], sql: sql,
                connectionLost: info[.sqlState]?.hasPrefix("08") == true || info[.sqlState]?.hasPrefix("57P") == true)
        } else {
            // Not an answer from the server: the connection (or its opening) failed.
            self.init(
                sqlState: nil, message: "connection failed: \(error.code)", constraint: nil, sql: sql,
                connectionLost: error.code != .tooManyParameters)
        }
    }

    /// A connection that could not be opened.
    static func connectFailed(_ error: any Error) -> Self {
        let reason = (error as? PSQLError).map { "\($0.code)" } ?? "\(type(of: error))"
        return Self(sqlState: nil, message: "could not connect: \(reason)", constraint: nil, sql: nil, connectionLost: true)
    }

    private init(sqlState: String?, message: String, constraint: String?, sql: String?, connectionLost: Bool) {
        self.sqlState = sqlState
        self.message = message
        self.constraint = constraint
        self.sql = sql
        self.connectionLost = connectionLost
    }
}
