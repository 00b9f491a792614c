import GRDB

/// Savepoints and transactions through cached statements, for the group commit's writer.
///
/// GRDB's `inSavepoint` and `inTransaction` compile their `SAVEPOINT`, `RELEASE`, `BEGIN` and
/// `COMMIT` text anew each time, on the writer's thread that every authorization waits for;
/// prepared once per connection, each is a step (docs/performance.md).
extension Database {
    /// Runs `body` in a savepoint of the current transaction: released when `body` returns,
    /// rolled back (and released) when it throws, which rethrows its error. Outside a
    /// transaction this is GRDB's `inSavepoint`, which opens one.
    func inCachedSavepoint<T>(_ body: () throws -> T) throws -> T {
        guard isInsideTransaction else {
            var value: T?
            try inSavepoint {
                value = try body()
                return .commit
            }
            return value!
        }
        try cachedStatement(sql: "SAVEPOINT job").execute()
        let value: T
        do {
            value = try body()
        } catch {
            // A failure that ended the whole transaction (SQLite does for some I/O errors)
            // leaves no savepoint to return to; the group's commit then fails for everyone.
            if isInsideTransaction {
                // Best effort: when these fail the transaction is gone, and the group's commit reports it to every job.
                try? cachedStatement(sql: "ROLLBACK TRANSACTION TO SAVEPOINT job").execute()
                try? cachedStatement(sql: "RELEASE SAVEPOINT job").execute()
            }
            throw error
        }
        try cachedStatement(sql: "RELEASE SAVEPOINT job").execute()
        return value
    }

    /// Begins an immediate transaction (the writer's lock taken at once) with a cached
    /// statement.
    func beginCachedImmediateTransaction() throws {
        try cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION").execute()
    }

    /// Commits the current transaction with a cached statement; when the commit fails, rolls
    /// the transaction back so that none is left open, and rethrows the commit's error.
    func commitCachedTransaction() throws {
        do {
            try cachedStatement(sql: "COMMIT TRANSACTION").execute()
        } catch {
            // The commit's error is what the caller hears; a rollback that fails leaves nothing committed either.
            rollbackCachedTransaction()
            throw error
        }
    }

    /// Rolls the current transaction back, if one is still open, with a cached statement.
    func rollbackCachedTransaction() {
        // Called on a failure, which is what the caller hears; a rollback that fails leaves nothing committed either.
        if isInsideTransaction { try? cachedStatement(sql: "ROLLBACK TRANSACTION").execute() }
    }
}
