import Foundation
import GRDB

/// The gateway's database: one SQLite file in WAL mode with `synchronous=FULL` (a write
/// the gateway answered is on disk), a busy timeout, and every ``GatewayMigrations``
/// applied at open.
///
/// Domain services read and write through ``writer``; every query must be scoped to the
/// caller's merchant id. Writes that many concurrent requests make (payments, idempotency
/// keys) go through ``groupCommitWriter``, the one group-commit writer of this database, so
/// that they share commits whichever domain makes them.
public struct GatewayStore: Sendable {
    /// The page size of a database the store creates.
    public static let pageSize = 1024

    /// The connection pool: concurrent reads, serialized writes.
    public let writer: DatabasePool
    /// The group-commit writer over ``writer``, shared by every domain that groups its writes.
    public let groupCommitWriter: GroupCommitLedgerWriter
    /// The checkpoint hook of the writer connection, through which ``groupCommitWriter``
    /// answers a group before the checkpoint its commit made due.
    let checkpoints: DeferredCheckpoint
    /// The gateway's instance id (`gw_` and 16 hex digits), created with the database and
    /// kept in it: the same across restarts, ports and proxies.
    public let instanceID: String

    /// Opens (creating if needed) the database at `path` and migrates it.
    ///
    /// - Throws: GRDB's error when the file cannot be opened, put in WAL mode or migrated;
    ///   ``GatewayStartupError/instanceIDMissing`` when its instance id was deleted.
    public init(path: String) throws {
        try self.init(path: path, checkpointThreshold: nil)
    }

    /// Opens the database at `path`, checkpointing the write-ahead log past
    /// `checkpointThreshold` frames (SQLite's `wal_autocheckpoint` when nil).
    init(path: String, checkpointThreshold: Int32?) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if !directory.isEmpty {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.foreignKeysEnabled = true
        configuration.prepareDatabase { db in
            // 1 KiB pages for a new database (an existing one keeps its size): an
            // authorization changes one page in each of about ten b-trees, and a synced commit
            // costs by the page. Set before WAL is turned on.
            try db.execute(sql: "PRAGMA page_size = \(Self.pageSize)")
            // Temporary files in memory: the group commit's savepoints would otherwise spill
            // their sub-journals to files of their own (docs/performance.md).
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
        }
        writer = try DatabasePool(path: path, configuration: configuration)
        // Set on the writer's connection once the pool is open: GRDB turns WAL on after
        // `prepareDatabase` runs and sets `synchronous=NORMAL` as it does, which would leave
        // every commit unsynced (durable against a crash of the process, not of the machine).
        try writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        var migrator = DatabaseMigrator()
        GatewayMigrations.register(&migrator)
        try migrator.migrate(writer)
        let instance = try writer.read { db in
            try String.fetchOne(db, sql: "SELECT instanceId FROM gatewayInstance WHERE id = 1")
        }
        guard let instance, !instance.isEmpty else { throw GatewayStartupError.instanceIDMissing(path: path) }
        instanceID = instance
        checkpoints = try writer.writeWithoutTransaction { db in
            try DeferredCheckpoint.install(on: db, thresholdFrames: checkpointThreshold)
        }
        groupCommitWriter = GroupCommitLedgerWriter(database: writer, checkpoints: checkpoints)
    }
}
