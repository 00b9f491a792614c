import Foundation
import GRDB
import Testing

@testable import SandboxGateway

/// A group commit answers its callers before the checkpoint its commit made due; writes
/// outside the group checkpoint in their commit, as SQLite does; either way the write-ahead
/// log stays near its threshold instead of growing.
@Suite(.timeLimit(.minutes(2))) struct DeferredCheckpointTests {
    /// The checkpoint threshold these tests set, in frames (pages of 1 KiB).
    static let threshold = 24

    /// A store whose writer checkpoints past `threshold` frames, and a table to fill. (Not
    /// `PRAGMA wal_autocheckpoint`: it would put SQLite's own hook back on the connection.)
    static func makeStore(in directory: URL) throws -> GatewayStore {
        let store = try GatewayStore(
            path: directory.appendingPathComponent("gateway.sqlite").path,
            checkpointThreshold: Int32(threshold))
        try store.sqliteWriter.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE filler (id INTEGER PRIMARY KEY, body BLOB NOT NULL)")
        }
        return store
    }

    /// Three pages of data and an index page or so per row: a commit of its own writes 3–5 frames.
    static func insertRow(_ db: any SQLSession) throws {
        try db.execute(sql: "INSERT INTO filler (body) VALUES (zeroblob(3000))")
    }

    /// Frames in the log since it last restarted, which a checkpoint lets the next write do.
    static func logFrames(_ store: GatewayStore) throws -> Int {
        try store.sqliteWriter.writeWithoutTransaction { db in
            // busy, log, checkpointed
            try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(PASSIVE)")?[1] ?? -1
        }
    }

    @Test func aGroupLeavesItsCheckpointUntilItsCallersHaveTheirAnswers() async throws {
        let directory = GatewayStoreTests.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.makeStore(in: directory)
        let writer = try #require(store.sqliteGroupCommitWriter)
        // The migrations' frames make the table's creation checkpoint in its commit.
        let inlineBefore = try #require(store.checkpoints).counts.inline

        for _ in 0..<60 { try await writer.write { db in try Self.insertRow(db) } }

        try await Self.expectEveryCheckpointDeferred(
            try #require(writer.checkpointCounts), inlineBefore: inlineBefore, in: store)
    }

    /// 60 commits of 3–5 frames cross a threshold of 24 about ten times: every checkpoint was
    /// deferred out of a commit, each ran (the log restarted instead of holding all 200-odd
    /// frames), and every row is there.
    static func expectEveryCheckpointDeferred(
        _ counts: (deferred: Int, inline: Int), inlineBefore: Int, in store: GatewayStore
    ) async throws {
        #expect(counts.deferred >= 5)
        #expect(counts.inline == inlineBefore)
        #expect(try logFrames(store) <= threshold + 8)
        let rows = try await store.sqliteWriter.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM filler")
        }
        #expect(rows == 60)
    }

    @Test func writesOutsideAGroupCheckpointInTheirCommit() async throws {
        let directory = GatewayStoreTests.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.makeStore(in: directory)
        try await store.groupCommitWriter.write { db in try Self.insertRow(db) }

        for _ in 0..<60 { try await store.sqliteWriter.write { db in try Self.insertRow(SQLiteSession(db)) } }

        let counts = try #require(store.checkpoints).counts
        #expect(counts.inline >= 5)
        #expect(try Self.logFrames(store) <= Self.threshold + 8)
    }

    @Test func everyGroupWriterOfTheStoreDefersThroughItsOneHook() async throws {
        let directory = GatewayStoreTests.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.makeStore(in: directory)
        let second = GroupCommitLedgerWriter(database: try store.sqliteWriter, checkpoints: store.checkpoints)
        let inlineBefore = try #require(store.checkpoints).counts.inline

        for index in 0..<60 {
            let writer: any LedgerWriter = index.isMultiple(of: 2) ? store.groupCommitWriter : second
            try await writer.write { db in try Self.insertRow(db) }
        }

        // Both writers defer through the connection's one hook: none checkpoints in its commit.
        try await Self.expectEveryCheckpointDeferred(
            try #require(store.checkpoints).counts, inlineBefore: inlineBefore, in: store)
    }

    @Test func aGroupWriterWithoutTheHookLeavesCheckpointsToSQLite() async throws {
        let directory = GatewayStoreTests.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.makeStore(in: directory)
        let writer = GroupCommitLedgerWriter(database: try store.sqliteWriter)

        for _ in 0..<60 { try await writer.write { db in try Self.insertRow(db) } }

        #expect(writer.checkpointCounts == nil)
        // Its commits ran the store's hook outside a deferral: each checkpointed inline.
        #expect(try #require(store.checkpoints).counts.inline >= 5)
        #expect(try #require(store.checkpoints).counts.deferred == 0)
        #expect(try Self.logFrames(store) <= Self.threshold + 8)
    }
}
