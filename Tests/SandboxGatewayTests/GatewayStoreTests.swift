import Foundation
import GRDB
import Testing

@testable import SandboxGateway

/// The gateway answers only for what is on disk: its writer connection must commit with
/// `synchronous=FULL` (an fsync of the write-ahead log per commit) in WAL mode, on a new file
/// and on one opened again.
@Suite struct GatewayStoreTests {
    static func writerPragma(_ store: GatewayStore, _ name: String) throws -> String? {
        try store.writer.writeWithoutTransaction { db in try String.fetchOne(db, sql: "PRAGMA \(name)") }
    }

    @Test func theWriterCommitsDurablyInWALMode() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gateway-store-\(UUID().uuidString)")
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
}
