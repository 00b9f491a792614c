import Foundation
import GRDB
import Testing

@testable import SandboxGateway

/// The gateway answers only for what is on disk: its writer connection must commit with
/// `synchronous=FULL` (an fsync of the write-ahead log per commit) in WAL mode, on a new file
/// and on one opened again.
@Suite(.timeLimit(.minutes(2))) struct GatewayStoreTests {
    /// A directory of its own under the temporary directory, for one test's database files.
    static func scratchDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("gateway-store-\(UUID().uuidString)")
    }

    static func writerPragma(_ store: GatewayStore, _ name: String) throws -> String? {
        try store.sqliteWriter.writeWithoutTransaction { db in try String.fetchOne(db, sql: "PRAGMA \(name)") }
    }

    @Test func theWriterCommitsDurablyInWALMode() throws {
        let directory = Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("gateway.sqlite").path
        do {
            let store = try GatewayStore(path: path)
            #expect(try Self.writerPragma(store, "journal_mode") == "wal")
            // 2 is FULL; GRDB's own WAL set-up leaves 1 (NORMAL).
            #expect(try Self.writerPragma(store, "synchronous") == "2")
        }
        let reopened = try GatewayStore(path: path)
        #expect(try Self.writerPragma(reopened, "synchronous") == "2")
        #expect(try Self.writerPragma(reopened, "journal_mode") == "wal")
    }

    /// A group commit runs each request in a savepoint; with temporary files on disk SQLite
    /// spilled each large group's sub-journal to a file in /var/tmp (opened, written page by
    /// page and deleted per commit). In memory, on the writer and on the readers alike.
    @Test func temporaryFilesStayInMemory() throws {
        let directory = Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try GatewayStore(path: directory.appendingPathComponent("gateway.sqlite").path)
        // 2 is MEMORY; SQLite's default is 0 (the compile-time choice, a file here).
        #expect(try Self.writerPragma(store, "temp_store") == "2")
        #expect(try store.sqliteWriter.read { db in try String.fetchOne(db, sql: "PRAGMA temp_store") } == "2")
    }

    /// Small pages for a new database, since a synced commit's cost follows the bytes it
    /// writes; a database made with 4 KiB pages keeps them and its rows.
    @Test func aNewDatabaseHasSmallPagesAndAnOldOneKeepsItsOwn() throws {
        let directory = Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("gateway.sqlite").path
        do {
            let store = try GatewayStore(path: path)
            #expect(try Self.writerPragma(store, "page_size") == "1024")
        }
        #expect(try Self.writerPragma(try GatewayStore(path: path), "page_size") == "1024")

        let old = directory.appendingPathComponent("old.sqlite").path
        try DatabaseQueue(path: old).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA page_size = 4096")
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "CREATE TABLE kept (x)")
            try db.execute(sql: "INSERT INTO kept VALUES ('row')")
        }
        let store = try GatewayStore(path: old)
        #expect(try Self.writerPragma(store, "page_size") == "4096")
        #expect(try store.sqliteWriter.read { db in try String.fetchOne(db, sql: "SELECT x FROM kept") } == "row")
        #expect(try store.sqliteWriter.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM merchant") } != nil)
    }
}
