import PostgresNIO

/// The session's statements as PostgresNIO's prepared statements, which it prepares on a
/// connection under their name the first time they run there and executes by name afterwards.
///
/// PostgresNIO reads a prepared statement's name and text from its type, while the session's
/// statements are only known at run time: the types read them from the task that runs them
/// (``running``), set by ``PostgresSession`` around each execution.
enum PostgresNamedStatement {
    /// The name and the `$n` text of the statement the current task runs.
    struct Text: Sendable {
        var name: String
        var sql: String
    }

    @TaskLocal static var running = Text(name: "", sql: "")

    /// A statement, whose answer is rows.
    struct Query: PostgresPreparedStatement {
        typealias Row = PostgresRow
        static var name: String { running.name }
        static var sql: String { running.sql }

        let bindings: PostgresBindings
        func makeBindings() -> PostgresBindings { bindings }
        func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
    }
}
