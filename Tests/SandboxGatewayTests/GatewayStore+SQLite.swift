import GRDB

@testable import SandboxGateway

/// What the tests that look at SQLite itself (its connection, triggers, pragmas) reach
/// through a store: they open SQLite stores only.
extension GatewayStore {
    /// The SQLite pool of a SQLite store; throws for another engine.
    var sqliteWriter: DatabasePool {
        get throws {
            guard let pool = sqlitePool else { throw NotSQLite() }
            return pool
        }
    }
}

/// A test that needs SQLite was given another engine.
struct NotSQLite: Error {}
