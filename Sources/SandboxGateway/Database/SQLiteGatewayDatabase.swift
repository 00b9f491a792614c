import Foundation
import GRDB

/// The SQLite implementation of ``GatewayDatabase``: one file in WAL mode with
/// `synchronous=FULL` (a write the gateway answered is on disk), a busy timeout, every
/// ``GatewayMigrations`` applied at open, and one group-commit writer whose commits defer
/// their checkpoints.
public final class SQLiteGatewayDatabase: GatewayDatabase {
    /// The connection pool: concurrent reads, serialized writes.
    public let pool: DatabasePool
    /// The group-commit writer over ``pool``, shared by every domain that groups its writes.
    public let groupCommit: GroupCommitLedgerWriter
    /// The checkpoint hook of the writer connection, through which ``groupCommit`` answers a
    /// group before the checkpoint its commit made due.
    let checkpoints: DeferredCheckpoint?
    /// The gateway's instance id (`gw_` and 16 hex digits), created with the database and
    /// kept in it: the same across restarts, ports and proxies.
    public let instanceID: String

    /// Opens (creating if needed) the database at `path` and migrates it, checkpointing the
    /// write-ahead log past `checkpointThreshold` frames (SQLite's `wal_autocheckpoint` when nil).
    /// The file, its `-wal` and `-shm` are 0600 and the folders it creates 0700, whatever the
    /// umask.
    ///
    /// - Throws: GRDB's error when the file cannot be opened, put in WAL mode or migrated;
    ///   ``GatewayStartupError/instanceIDMissing`` when its instance id was deleted;
    ///   ``GatewayStartupError/fingerprintKeyRequired`` when it still holds its card-fingerprint
    ///   key (made by an older version): open it with ``GatewayStore/init(opening:)`` and a key.
    public convenience init(path: String, checkpointThreshold: Int32? = nil) throws {
        try self.init(
            path: path, checkpointThreshold: checkpointThreshold,
            fingerprintKey: CardFingerprintKeyCheck(given: nil, database: path))
    }

    /// Opens the database as ``init(path:checkpointThreshold:)`` does, settling its
    /// card-fingerprint key with `fingerprintKey` before migrating it.
    init(path: String, checkpointThreshold: Int32?, fingerprintKey: CardFingerprintKeyCheck) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try PrivateFiles.createFolders(directory)
        // Made 0600 before SQLite opens it: SQLite creates the -wal and -shm files with the
        // database's mode, and the umask would otherwise decide all three.
        try PrivateFiles.prepareFile(path)
        try PrivateFiles.restrictIfPresent(path + "-wal")
        try PrivateFiles.restrictIfPresent(path + "-shm")
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.foreignKeysEnabled = true
        configuration.prepareDatabase { db in
            // 1 KiB pages for a new database (an existing one keeps its size): an
            // authorization changes one page in each of about ten b-trees, and a synced commit
            // costs by the page. Set before WAL is turned on.
            try db.execute(sql: "PRAGMA page_size = \(GatewayStore.pageSize)")
            // Temporary files in memory: the group commit's savepoints would otherwise spill
            // their sub-journals to files of their own (docs/performance.md).
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        // Set on the writer's connection once the pool is open: GRDB turns WAL on after
        // `prepareDatabase` runs and sets `synchronous=NORMAL` as it does, which would leave
        // every commit unsynced (durable against a crash of the process, not of the machine).
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        let heldKey = try pool.read { db in
            try fingerprintKey.resolve(SQLiteSession(db))
            return try db.tableExists("payment_secret")
        }
        var migrator = DatabaseMigrator()
        GatewayMigrations.register(&migrator)
        try migrator.migrate(pool)
        if heldKey {
            // The log held the key's page until now: its overwritten copy goes to the file
            // and the log is emptied.
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        }
        let instance = try pool.read { db in
            try String.fetchOne(db, sql: "SELECT instanceId FROM gatewayInstance WHERE id = 1")
        }
        guard let instance, !instance.isEmpty else { throw GatewayStartupError.instanceIDMissing(path: path) }
        instanceID = instance
        checkpoints = try pool.writeWithoutTransaction { db in
            try DeferredCheckpoint.install(on: db, thresholdFrames: checkpointThreshold)
        }
        groupCommit = GroupCommitLedgerWriter(database: pool, checkpoints: checkpoints)
    }

    /// Serves an already open and migrated `pool` (tests over part of the schema): its group
    /// commits checkpoint as SQLite does, inside the commit.
    init(pool: DatabasePool, instanceID: String) {
        self.pool = pool
        self.instanceID = instanceID
        checkpoints = nil
        groupCommit = GroupCommitLedgerWriter(database: pool)
    }

    /// Always ``SQLDialect/sqlite``.
    public var dialect: SQLDialect { .sqlite }

    /// One process serves a SQLite file.
    public var isSharedByInstances: Bool { false }

    /// One writer connection.
    public var writesOneAtATime: Bool { true }

    /// Left to its last reader.
    public var closesWithTheGateway: Bool { false }

    /// The group-commit writer (``groupCommit``).
    public var groupCommitWriter: any LedgerWriter { groupCommit }

    /// Runs `body` on a snapshot of the database (a WAL reader).
    public func read<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        try await pool.read { db in try body(SQLiteSession(db)) }
    }

    /// Runs `body` in a write transaction of its own.
    @discardableResult
    public func write<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        try await pool.write { db in try body(SQLiteSession(db)) }
    }

    /// Whether a trivial query answers.
    public func isReachable() async -> Bool {
        // Any failure is the answer: not reachable.
        (try? await pool.read { db in try Int.fetchOne(db, sql: "SELECT 1") }) == 1
    }

    /// Closes the pool's connections.
    public func close() async throws {
        try pool.close()
    }
}
