import Foundation
import GRDB

/// The gateway's database, as its domain services see it: a ``GatewayDatabase`` (SQLite by
/// default, PostgreSQL where several instances share one database).
///
/// Domain services read and write through ``database``; every query must be scoped to the
/// caller's merchant id. Writes that many concurrent requests make (payments, idempotency
/// keys) go through ``groupCommitWriter``, the one group-commit writer of this database, so
/// that they share commits whichever domain makes them.
public struct GatewayStore: Sendable {
    /// The page size of a SQLite database the store creates.
    public static let pageSize = 1024

    /// The database every domain service uses.
    public let database: any GatewayDatabase

    /// The group-commit writer of ``database``, shared by every domain that groups its writes.
    public var groupCommitWriter: any LedgerWriter { database.groupCommitWriter }

    /// The gateway's instance id (`gw_` and 16 hex digits), created with the database and
    /// kept in it: the same across restarts, ports and proxies.
    public var instanceID: String { database.instanceID }

    /// The key card fingerprints are made with, settled by ``init(opening:)``; `nil` when the
    /// store was opened without one.
    public let fingerprintKey: CardFingerprintKey?

    /// The database when it is SQLite and the store was given it as such, for the tests and
    /// benchmarks that look at SQLite itself.
    private let sqlite: SQLiteGatewayDatabase?

    /// The SQLite connection pool when the database is SQLite (for tests and benchmarks that
    /// need SQLite itself), else nil.
    public var sqlitePool: DatabasePool? { sqlite?.pool }

    /// The SQLite group-commit writer when the database is SQLite, else nil.
    public var sqliteGroupCommitWriter: GroupCommitLedgerWriter? { sqlite?.groupCommit }

    /// The checkpoint hook of a SQLite store's writer connection, else nil.
    var checkpoints: DeferredCheckpoint? { sqlite?.checkpoints }

    /// Opens (creating if needed) the SQLite database at `path` and migrates it.
    ///
    /// - Throws: GRDB's error when the file cannot be opened, put in WAL mode or migrated;
    ///   ``GatewayStartupError/instanceIDMissing`` when its instance id was deleted.
    public init(path: String) throws {
        try self.init(path: path, checkpointThreshold: nil)
    }

    /// Opens the SQLite database at `path`, checkpointing the write-ahead log past
    /// `checkpointThreshold` frames (SQLite's `wal_autocheckpoint` when nil).
    init(path: String, checkpointThreshold: Int32?) throws {
        let sqlite = try SQLiteGatewayDatabase(path: path, checkpointThreshold: checkpointThreshold)
        database = sqlite
        self.sqlite = sqlite
        fingerprintKey = nil
    }

    /// Opens the database `configuration` names: PostgreSQL when it has a
    /// ``SandboxGatewayConfiguration/databaseURL`` (migrated, shared with the other instances
    /// on it), else the SQLite file at ``SandboxGatewayConfiguration/databasePath``, and settles
    /// the card-fingerprint key: the configuration's ``SandboxGatewayConfiguration/fingerprintKey``,
    /// else its ``SandboxGatewayConfiguration/fingerprintKeyFile`` (created if missing, with the
    /// key an older database held), checked against the key id the database recorded.
    ///
    /// - Throws: ``PostgresEngineError`` when PostgreSQL cannot be reached or migrated; GRDB's
    ///   error when the SQLite file cannot be opened; ``GatewayStartupError`` when the key
    ///   cannot be used or is not the one the database's fingerprints were made with.
    public init(opening configuration: SandboxGatewayConfiguration) async throws {
        let check = CardFingerprintKeyCheck(configuration)
        let database: any GatewayDatabase
        let sqlite: SQLiteGatewayDatabase?
        if let url = configuration.databaseURL {
            database = try await PostgresGatewayDatabase(
                url: url, configuration: configuration.postgres, fingerprintKey: check)
            sqlite = nil
        } else {
            let file = try SQLiteGatewayDatabase(
                path: configuration.databasePath, checkpointThreshold: nil, fingerprintKey: check)
            database = file
            sqlite = file
        }
        do {
            try await check.record(in: database)
        } catch {
            // The check's own error is what the caller hears; a close that fails on top of it adds nothing.
            try? await database.close()
            throw error
        }
        self.database = database
        self.sqlite = sqlite
        self.fingerprintKey = check.key
    }

    /// Uses `database`, already open and migrated, without a card-fingerprint key; its
    /// ``sqlitePool`` is nil whatever the engine (the initializer taking a
    /// `SQLiteGatewayDatabase` keeps SQLite's).
    public init(database: any GatewayDatabase) {
        self.database = database
        self.sqlite = nil
        self.fingerprintKey = nil
    }

    /// Uses the SQLite `database`, already open and migrated, without a card-fingerprint key.
    public init(database: SQLiteGatewayDatabase) {
        self.database = database
        self.sqlite = database
        self.fingerprintKey = nil
    }
}
