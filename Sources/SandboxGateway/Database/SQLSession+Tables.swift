extension SQLSession {
    /// Whether the database has a table named `name` (in the current schema on PostgreSQL).
    public func tableExists(_ name: String) throws -> Bool {
        let count: String
        switch dialect {
        case .sqlite:
            count = "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?"
        case .postgres:
            count = """
                SELECT COUNT(*) FROM information_schema.tables
                WHERE table_schema = current_schema() AND table_name = ?
                """
        }
        return try fetchValue(Int.self, sql: count, arguments: [name]) == 1
    }
}
