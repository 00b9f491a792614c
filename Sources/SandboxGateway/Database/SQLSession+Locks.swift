extension SQLSession {
    /// Holds a lock named `name` until the transaction ends, so that instances sharing a
    /// PostgreSQL database run a check-then-insert one at a time; on SQLite, whose writes are
    /// already one at a time, it runs nothing.
    public func holdTransactionLock(named name: String) throws {
        guard let lock = dialect.transactionLock(named: name) else { return }
        _ = try fetchAll(sql: lock)
    }
}
