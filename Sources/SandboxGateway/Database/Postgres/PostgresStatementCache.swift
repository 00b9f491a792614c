import Foundation

/// The named prepared statements of one connection: which statement text runs under which
/// server-side name, and which statements run unnamed.
///
/// A statement is prepared the first time it runs on the connection and executed by name
/// afterwards, so the server parses and plans it once. The key is the text together with the
/// kinds of its bound values: a parameter's type is fixed when the statement is prepared, and a
/// NULL leaves it to the server's inference, so the same text bound once with NULL and once
/// with an integer needs two statements.
///
/// Pure bookkeeping, owned by ``PostgresSession`` and dying with its connection (the server
/// forgets a connection's statements when it closes). Bounded: past ``capacity`` statements,
/// new ones run unnamed.
struct PostgresStatementCache {
    /// How a statement is to be sent.
    enum Plan: Equatable {
        /// Executed by `name`, prepared first on the server when `isNew`.
        case named(String, isNew: Bool)
        /// Sent as an unnamed statement: parsed and planned each time.
        case unnamed
    }

    /// How many named statements the connection may hold.
    let capacity: Int
    /// How many names one statement may use up before it runs unnamed for good.
    private let attempts = 2

    private struct Entry {
        var name: String?
        var executions = 0
        var retired = 0
    }
    private var entries: [String: Entry] = [:]
    private var named = 0
    /// How many statements were sent to the server to be prepared.
    private(set) var prepares = 0

    init(capacity: Int = 256) {
        self.capacity = capacity
    }

    /// The plan for the statement `key` (its text and the kinds of its values), counting one
    /// execution. Statements that `preparable` says not to prepare run unnamed.
    mutating func plan(for key: String, preparable: Bool) -> Plan {
        guard preparable else { return .unnamed }
        var entry = entries[key] ?? Entry()
        defer { entries[key] = entry }
        if let name = entry.name {
            entry.executions += 1
            return .named(name, isNew: false)
        }
        guard entry.retired < attempts, named < capacity else { return .unnamed }
        named += 1
        prepares += 1
        let name = "mpos_\(named)"
        entry.name = name
        entry.executions = 1
        return .named(name, isNew: true)
    }

    /// Records that `key` failed under its name with `sqlState`; a failure that may have come
    /// from the preparation itself (or from a plan the schema made stale) retires the name,
    /// so the next run prepares afresh under a new one, or runs unnamed after too many tries.
    mutating func failed(_ key: String, sqlState: String?) {
        guard var entry = entries[key], entry.name != nil else { return }
        let first = entry.executions == 1
        let stalePlan = sqlState == "0A000"  // "cached plan must not change result type"
        let atPreparation = first && (sqlState?.hasPrefix("42") == true || sqlState == "25P02")
        guard stalePlan || atPreparation else { return }
        entry.name = nil
        entry.retired += 1
        entries[key] = entry
    }

    /// What a statement is, for how it is sent and how its answer is read.
    enum Kind: Equatable {
        /// Transaction control, savepoints, settings, schema changes: not worth preparing.
        case unprepared
        /// A query, or a change with `RETURNING`: its rows are its answer, and as many as it touched.
        case rows
        /// A plain INSERT, UPDATE or DELETE: no rows, and what it touched only in the command
        /// tag, which a named statement cannot read (``PostgresSession`` asks it for a row each).
        case change
        /// A `WITH`: rows for a query, but what it touched may be neither its rows nor its tag's
        /// count, so it runs unnamed when that is asked for.
        case compound
    }

    /// The kind of `sql`, by its first word.
    static func kind(of sql: String) -> Kind {
        switch firstKeyword(of: sql) {
        case "SELECT", "VALUES": .rows
        case "INSERT", "UPDATE", "DELETE":
            sql.range(of: "RETURNING", options: .caseInsensitive) == nil ? .change : .rows
        case "WITH": .compound
        default: .unprepared
        }
    }

    /// The statement's first word in upper case, after white space and comments.
    static func firstKeyword(of sql: String) -> String {
        var rest = Substring(sql)
        while true {
            rest = rest.drop(while: { $0.isWhitespace || $0 == "(" })
            if rest.hasPrefix("--") {
                rest = rest.drop(while: { $0 != "\n" })
            } else if rest.hasPrefix("/*"), let end = rest.range(of: "*/") {
                rest = rest[end.upperBound...]
            } else {
                break
            }
        }
        return rest.prefix(while: { $0.isLetter }).uppercased()
    }
}
