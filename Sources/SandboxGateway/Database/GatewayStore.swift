import Foundation
import GRDB

/// The gateway's database: one SQLite file in WAL mode with `synchronous=FULL` (a write
/// the gateway answered is on disk), a busy timeout, and every ``GatewayMigrations``
/// applied at open.
///
/// Domain services read and write through ``writer``; every query must be scoped to the
/// caller's merchant id.
public struct GatewayStore: Sendable {
    /// The page size of a database the store creates.
    public static let pageSize = 1024

    /// The connection pool: concurrent reads, serialized writes.
    public let writer: DatabasePool

    /// Opens (creating if needed) the database at `path` and migrates it.
    ///
    /// - Throws: GRDB's error when the file cannot be opened, put in WAL mode or migrated.
    public init(path: String) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if !directory.isEmpty {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.foreignKeysEnabled = true
        configuration.prepareDatabase { db in
            // 1 KiB pages for a new database (an existing one keeps its size): a synced
            // commit costs this disk about 50 µs per 4 KiB page it writes, and an
            // authorization changes one page in each of about ten b-trees (the ledger row,
            // its indexes, the card's spend, the idempotency key), so smaller pages took a
            // tenth of a millisecond off every sale's commit. Before WAL is turned on.
            try db.execute(sql: "PRAGMA page_size = \(Self.pageSize)")
            // Temporary files in memory: a group commit runs each request in a savepoint,
            // and SQLite keeps the pages a savepoint may roll back in a sub-journal that it
            // spills to a file of its own in /var/tmp past 64 KiB. With the default, every
            // group of a dozen authorizations opened, wrote page by page, and deleted such a
            // file: more `pwrite` calls than the write-ahead log itself took.
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
        // No room is reserved in the write-ahead log here, unlike the SDK's journal
        // (`WriteAheadLogRoom`): in paired runs it raised the raw commit rate by a quarter but
        // left the authorization throughput and p99 unchanged, which the CPU per request
        // limits, and every start would write megabytes for it.
    }
}
