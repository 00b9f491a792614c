import Foundation
import GatewayAPI
import MPOSCore
import MPOSTestSupport
import Testing

@testable import MPOSKit

/// The offline store file: sealed slots, synced appends, and damage that stays in the slot
/// it falls in.
@Suite(.timeLimit(.minutes(2)))
struct OfflineStoreTests {
    final class Folder: Sendable {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "offline-\(UUID().uuidString)")
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }
        var storePath: String { url.appendingPathComponent("journal.sqlite.offline").path }
        var keys: OfflineKeyFile {
            OfflineKeyFile(path: url.appendingPathComponent("journal.sqlite.offline-key").path)
        }
        func store() -> OfflineStore { OfflineStore(path: storePath, keys: keys) }
    }

    static func record(_ n: Int) -> OfflineRecord {
        var request = AuthorizeCardRequest(
            kind: .sale,
            parameters: PaymentParameters(amount: Int64(100 + n), currency: .eur, duplicateCheck: false),
            emvData: "9F2701409F2608" + String(format: "%016X", n),
            encryptedCardData: String(repeating: "AB", count: 48),
            ksn: "FFFF9876543210E00001", maskedPAN: "411111******1111", entryMode: .chip, cvm: .pin)
        request.offlineStoredAt = Date(timeIntervalSince1970: 1_800_000_000 + Double(n))
        return OfflineRecord(
            id: UUID(), key: IdempotencyKey(), storedAt: request.offlineStoredAt!, request: request)
    }

    static func outcome(_ record: OfflineRecord) -> OfflineForwardOutcome {
        OfflineForwardOutcome(
            id: record.id, approved: true,
            transactionID: TransactionID(rawValue: "tx_\(record.request.parameters.amount)"),
            responseCode: "00", forwardedAt: Date(timeIntervalSince1970: 1_800_100_000))
    }

    @Test func recordsReadBackInStoredOrderAndAForwardedMarkTakesOneOut() async throws {
        let folder = try Folder()
        let store = folder.store()
        let records = (0..<3).map(Self.record)
        for record in records { try await store.append(record) }
        try await store.markForwarded(Self.outcome(records[1]))
        let contents = try await folder.store().contents()
        #expect(contents.records == records)
        #expect(contents.pending.map(\.id) == [records[0].id, records[2].id])
        #expect(contents.forwarded[records[1].id] == Self.outcome(records[1]))
        #expect(contents.damagedSlots.isEmpty)
        #expect(try await store.holds(records[2].key))
        #expect(try await !store.holds(IdempotencyKey()))
        let size = try #require(
            try FileManager.default.attributesOfItem(atPath: folder.storePath)[.size] as? Int)
        #expect(size == 4 * OfflineStore.slotSize)
    }

    @Test func theFileShowsNothingInTheClear() async throws {
        let folder = try Folder()
        try await folder.store().append(Self.record(7))
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.storePath)))
        for clear in ["411111", "FFFF9876543210E00001", "ABABABAB", "\"amount\""] {
            #expect(!ByteSearch.contains(bytes, Array(clear.utf8)), "\(clear) is in the clear")
        }
    }

    @Test func theKeyFileIsCreated0600AndRefusedWhenOthersMayReadIt() throws {
        let folder = try Folder()
        _ = try folder.keys.key()
        let mode =
            try FileManager.default.attributesOfItem(atPath: folder.keys.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: folder.keys.path)
        #expect(throws: MPOSError.offlineStoreFailed) { try folder.keys.key() }
    }

    @Test func anotherKeyReadsEverySlotAsDamaged() async throws {
        let folder = try Folder()
        try await folder.store().append(Self.record(1))
        let other = OfflineStore(
            path: folder.storePath,
            keys: OfflineKeyFile(path: folder.url.appendingPathComponent("other").path))
        let contents = try await other.contents()
        #expect(contents.records.isEmpty && contents.damagedSlots == [0])
    }

    /// R9 at the store: bit flips at seeded random offsets damage exactly the slots they fall
    /// in; every other record (and forwarded mark) still reads. A damaged mark puts its record
    /// back among the pending ones, which is safe: the forward goes under the same key.
    @Test func bitFlipsAtRandomOffsetsAreAllDetectedAndDamageOnlyTheirSlot() async throws {
        let folder = try Folder()
        let store = folder.store()
        let records = (0..<24).map(Self.record)
        for record in records { try await store.append(record) }
        for record in records.prefix(4) { try await store.markForwarded(Self.outcome(record)) }
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.storePath)))
        var random = SplitMix64(seed: SplitMix64.testSeed(environment: ProcessInfo.processInfo.environment))
        for round in 0..<40 {
            var bytes = original
            for _ in 0..<(1 + Int(random.next() % 3)) {
                let offset = Int(random.next() % UInt64(bytes.count))
                bytes[offset] ^= UInt8(1) << (random.next() % 8)
            }
            // Two flips of the same bit cancel out: the slots that differ are the damaged ones.
            let damaged = Set(
                bytes.indices.filter { bytes[$0] != original[$0] }.map { $0 / OfflineStore.slotSize })
            #expect(!damaged.isEmpty || bytes == original)
            try Data(bytes).write(to: URL(fileURLWithPath: folder.storePath))
            let contents = try await folder.store().contents()
            #expect(contents.damagedSlots == damaged.sorted(), "round \(round)")
            let intactRecords = records.indices.filter { !damaged.contains($0) }
            #expect(contents.records.map(\.id) == intactRecords.map { records[$0].id }, "round \(round)")
            let intactMarks = (0..<4).filter { !damaged.contains(24 + $0) }
            let expectedPending = intactRecords.filter { !intactMarks.contains($0) }
            #expect(contents.pending.map(\.id) == expectedPending.map { records[$0].id }, "round \(round)")
        }
    }

    @Test func aPartialSlotLeftByACrashIsOverwrittenByTheNextAppend() async throws {
        let folder = try Folder()
        let store = folder.store()
        try await store.append(Self.record(1))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: folder.storePath))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(repeating: 0x4D, count: 100))
        try handle.close()
        #expect(try await folder.store().contents().records.count == 1)
        try await store.append(Self.record(2))
        let contents = try await folder.store().contents()
        #expect(
            contents.records.map(\.request.parameters.amount) == [101, 102] && contents.damagedSlots.isEmpty)
    }

    @Test func aRecordTooLargeForASlotIsRefused() async throws {
        let folder = try Folder()
        var record = Self.record(1)
        record.request.emvData = String(repeating: "00", count: OfflineStore.slotSize)
        await #expect(throws: MPOSError.offlineStoreFailed) { try await folder.store().append(record) }
    }
}
