/// The few SQL expressions SQLite and PostgreSQL write differently, so domain code states
/// what it means once and each engine gets its own spelling.
///
/// Each returns SQL text to splice into a statement; its arguments are SQL expressions
/// (column names, `?`, literals), never values from a request.
extension SQLDialect {
    /// The larger of two values: SQLite's scalar `MAX(a, b)`, PostgreSQL's `GREATEST(a, b)`.
    public func greatest(_ a: String, _ b: String) -> String {
        switch self {
        case .sqlite: "MAX(\(a), \(b))"
        case .postgres: "GREATEST(\(a), \(b))"
        }
    }

    /// The smaller of two values: SQLite's scalar `MIN(a, b)`, PostgreSQL's `LEAST(a, b)`.
    public func least(_ a: String, _ b: String) -> String {
        switch self {
        case .sqlite: "MIN(\(a), \(b))"
        case .postgres: "LEAST(\(a), \(b))"
        }
    }

    /// The last `count` characters of a text: `substr(x, -n)` on SQLite, `RIGHT(x, n)` on
    /// PostgreSQL (whose `substr` takes no negative start).
    public func suffix(_ text: String, _ count: Int) -> String {
        switch self {
        case .sqlite: "substr(\(text), -\(count))"
        case .postgres: "RIGHT(\(text), \(count))"
        }
    }

    /// A byte range of a blob, `length` bytes from the 1-based `start` (both SQL expressions).
    public func blobRange(_ blob: String, from start: String, length: String) -> String {
        switch self {
        case .sqlite: "substr(\(blob), \(start), \(length))"
        // PostgreSQL's substring takes int4 positions; bound integers arrive as int8.
        case .postgres: "substring(\(blob) FROM CAST(\(start) AS INTEGER) FOR CAST(\(length) AS INTEGER))"
        }
    }

    /// Concatenates the text of a group's rows with `separator` (a quoted SQL literal).
    public func groupConcat(_ expression: String, separator: String) -> String {
        switch self {
        case .sqlite: "GROUP_CONCAT(\(expression), \(separator))"
        case .postgres: "STRING_AGG(\(expression), \(separator))"
        }
    }

    /// A JSON object text built from `pairs` of key (plain text) and SQL expression.
    public func jsonObject(_ pairs: [(key: String, value: String)]) -> String {
        let arguments = pairs.map { "'\($0.key)', \($0.value)" }.joined(separator: ", ")
        switch self {
        case .sqlite: return "json_object(\(arguments))"
        case .postgres: return "json_build_object(\(arguments))::text"
        }
    }

    /// A JSON object value built from `fields` (`'key', expression` pairs, comma-separated), to
    /// nest in another (``jsonText(_:)`` makes the outermost one text).
    public func jsonObjectValue(_ fields: String) -> String {
        switch self {
        case .sqlite: "json_object(\(fields))"
        case .postgres: "json_build_object(\(fields))"
        }
    }

    /// A JSON boolean from an SQL condition (SQLite has no boolean type: it would be 0 or 1).
    public func jsonBoolean(_ condition: String) -> String {
        switch self {
        case .sqlite: "json(CASE WHEN \(condition) THEN 'true' ELSE 'false' END)"
        case .postgres: "(\(condition))"
        }
    }

    /// The text of a JSON value built by ``jsonObjectValue(_:)``.
    public func jsonText(_ json: String) -> String {
        switch self {
        case .sqlite: json
        case .postgres: "CAST(\(json) AS text)"
        }
    }

    /// The ledger's text day (`YYYY-MM-DD`) one day after the text day `day`.
    public func nextDay(_ day: String) -> String {
        switch self {
        case .sqlite: "date(\(day), '+1 day')"
        case .postgres: "to_char(CAST(\(day) AS date) + 1, 'YYYY-MM-DD')"
        }
    }

    /// A text day's quarter start (`YYYY-MM-01` of the quarter's first month), from a text day.
    public func quarterStart(_ day: String) -> String {
        switch self {
        case .sqlite:
            "substr(\(day), 1, 5) || printf('%02d', ((CAST(substr(\(day), 6, 2) AS INTEGER) - 1) / 3) * 3 + 1) || '-01'"
        case .postgres:
            "substr(\(day), 1, 5) || lpad(CAST(((CAST(substr(\(day), 6, 2) AS INTEGER) - 1) / 3) * 3 + 1 AS text), 2, '0') || '-01'"
        }
    }
}

extension SQLDialect {
    /// The tie-breaker that orders a table's rows as they were inserted: SQLite's `rowid`;
    /// on PostgreSQL, which keeps no such order, an identity column that the tables read this
    /// way have (`merchant`, `outbox`, `update_image`: ``PostgresMigrations/insertionOrder``).
    public var rowOrder: String {
        switch self {
        case .sqlite: "rowid"
        case .postgres: PostgresMigrations.insertionOrderColumn
        }
    }
}

extension SQLDialect {
    /// What follows a `SELECT` that must lock the rows it reads until the transaction ends, so
    /// that instances deciding on the same rows decide one after the other: `FOR UPDATE` on
    /// PostgreSQL; nothing on SQLite, whose writes are one at a time.
    public var lockingReadRows: String {
        switch self {
        case .sqlite: ""
        case .postgres: " FOR UPDATE"
        }
    }

    /// What follows a `SELECT` that claims rows for this transaction alone, passing over those
    /// another transaction holds (`FOR UPDATE SKIP LOCKED` on PostgreSQL; nothing on SQLite).
    public var claimingUnheldRows: String {
        switch self {
        case .sqlite: ""
        case .postgres: " FOR UPDATE SKIP LOCKED"
        }
    }
}

extension SQLDialect {
    /// A statement that holds a lock named `name` until the transaction ends, so that
    /// instances sharing a PostgreSQL database run a check-then-insert one at a time
    /// (`pg_advisory_xact_lock` on the name's hash); `nil` on SQLite, whose writes are
    /// already one at a time. It returns one row, `locked` = 1.
    public func transactionLock(named name: String) -> String? {
        switch self {
        case .sqlite: nil
        case .postgres:
            "SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(hashtext('\(name.filter { $0.isLetter || $0 == "." })'))) AS l"
        }
    }
}
