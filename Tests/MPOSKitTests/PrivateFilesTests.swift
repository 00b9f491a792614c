import Foundation
import Testing

@testable import MPOSKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every file the SDK creates beside an app's journal is readable by its owner only (0600) and
/// every folder it creates is 0700, whatever the process's umask: the journal holds masked card
/// numbers and amounts, the offline store payments waiting to be forwarded, the key file their key.
@Suite(.timeLimit(.minutes(2))) struct PrivateFilesTests {
    /// The permission bits of `path`.
    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? NSNumber).intValue & 0o777
    }

    @Test func theJournalItsLogTheOfflineStoreAndItsKeyAre0600InA0700Folder() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "private-files-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        // A permissive umask, as many shells have: the modes must not come from it.
        let previous = umask(0o022)
        defer { umask(previous) }
        let folder = root.appendingPathComponent("app/journal")
        let journalPath = folder.appendingPathComponent("journal.sqlite").path

        let journal = try PaymentJournal(path: journalPath)
        try await journal.write(JournalStorageTests.entry())
        let keys = OfflineKeyFile(path: journalPath + ".offline-key")
        let store = OfflineStore(path: journalPath + ".offline", keys: keys)
        try await store.append(OfflineStoreTests.record(1))

        for file in [
            journalPath, journalPath + "-wal", journalPath + "-shm", journalPath + ".offline",
            journalPath + ".offline-key",
        ] {
            #expect(FileManager.default.fileExists(atPath: file), "\(file) was not made")
            #expect(try Self.mode(file) == 0o600, "\(file)")
        }
        #expect(try Self.mode(folder.path) == 0o700)
        #expect(try Self.mode(folder.deletingLastPathComponent().path) == 0o700)
    }

    @Test func aJournalMadeReadableByAnOlderVersionIsRestrictedWhenOpened() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "private-files-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let journalPath = root.appendingPathComponent("journal.sqlite").path
        do {
            let journal = try PaymentJournal(path: journalPath)
            try await journal.write(JournalStorageTests.entry())
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: journalPath)

        _ = try PaymentJournal(path: journalPath)

        #expect(try Self.mode(journalPath) == 0o600)
    }
}
