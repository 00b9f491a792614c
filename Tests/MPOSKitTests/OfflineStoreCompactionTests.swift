import Foundation
import GatewayAPI
import MPOSCore
import MPOSTestSupport
import Testing

@testable import MPOSKit

/// Compaction of the offline store: what is dropped, what stays (in order), and a rewrite that
/// a crash cannot leave half done.
@Suite(.timeLimit(.minutes(2)))
struct OfflineStoreCompactionTests {
    typealias Folder = OfflineStoreTests.Folder

    static let cutoff = Date(timeIntervalSince1970: 1_800_050_000)

    static func outcome(_ record: OfflineRecord, at date: Date) -> OfflineForwardOutcome {
        var outcome = OfflineStoreTests.outcome(record)
        outcome.forwardedAt = date
        return outcome
    }

    static func authorization(_ n: Int) -> OfflineAuthorization {
        OfflineAuthorization(
            id: UUID(), gateway: "http://127.0.0.1:1", userHash: OfflineAuthorization.userHash("alice"),
            merchant: MerchantInfo(id: "m1", name: "Corner Cafe", currency: .eur, country: "DE", categoryCode: "5814"),
            policy: OfflinePolicy(), onlineAt: Date(timeIntervalSince1970: 1_800_000_000 + Double(n)))
    }

    static func size(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    }

    /// A sale forwarded before the cutoff goes with its marks, as do the older authorizations
    /// and a repeated mark; a sale forwarded since, a waiting one, the latest authorization and
    /// a damaged slot stay, in their order.
    @Test func whatNoLongerNeedsKeepingGoesAndTheRestStaysInOrder() async throws {
        let folder = try Folder()
        let store = folder.store()
        let old = OfflineStoreTests.record(1)
        let recent = OfflineStoreTests.record(2)
        let waiting = OfflineStoreTests.record(3)
        let tampered = OfflineStoreTests.record(4)
        try await store.appendAuthorization(Self.authorization(1))
        try await store.append(contentsOf: [old, recent, waiting, tampered])
        try await store.markForwarded([Self.outcome(old, at: Self.cutoff.addingTimeInterval(-1))])
        try await store.appendAuthorization(Self.authorization(2))
        // A lost mark forwarded the recent sale twice; the second mark is the one read.
        try await store.markForwarded([Self.outcome(recent, at: Self.cutoff)])
        try await store.markForwarded([Self.outcome(recent, at: Self.cutoff.addingTimeInterval(5))])
        let latest = Self.authorization(3)
        try await store.appendAuthorization(latest)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.storePath)))
        bytes[4 * OfflineStore.slotSize + 900] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: folder.storePath))
        #expect(try Self.size(folder.storePath) == 10 * OfflineStore.slotSize)

        let compaction = try await store.compact(forwardedBefore: Self.cutoff, minimumDrop: 1)
        #expect(compaction == OfflineStore.Compaction(kept: 5, dropped: 5))
        #expect(try Self.size(folder.storePath) == 5 * OfflineStore.slotSize)
        let contents = try await folder.store().contents()
        #expect(contents.records.map(\.id) == [recent.id, waiting.id])
        #expect(contents.forwarded == [recent.id: Self.outcome(recent, at: Self.cutoff.addingTimeInterval(5))])
        #expect(contents.pending.map(\.id) == [waiting.id])
        #expect(contents.authorization == latest)
        // The damaged slot is kept, byte for byte, and still reported.
        #expect(contents.damagedSlots == [2])
        let after = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.storePath)))
        #expect(after[(2 * OfflineStore.slotSize)..<(3 * OfflineStore.slotSize)] == bytes[(4 * OfflineStore.slotSize)..<(5 * OfflineStore.slotSize)])
        #expect(!FileManager.default.fileExists(atPath: folder.storePath + ".compacting"))
    }

    /// Below the threshold nothing is rewritten; a compaction a crash cut short (its file left
    /// beside the store) changes nothing and is cleared by the next one.
    @Test func belowTheThresholdOrAfterACrashTheStoreIsUntouched() async throws {
        let folder = try Folder()
        let store = folder.store()
        let records = (0..<3).map(OfflineStoreTests.record)
        try await store.append(contentsOf: records)
        try await store.markForwarded(records.prefix(2).map { Self.outcome($0, at: Self.cutoff.addingTimeInterval(-60)) })
        let before = try Data(contentsOf: URL(fileURLWithPath: folder.storePath))
        #expect(try await store.compact(forwardedBefore: Self.cutoff, minimumDrop: 5) == nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.storePath)) == before)

        try Data(repeating: 0x5A, count: 3 * OfflineStore.slotSize).write(
            to: URL(fileURLWithPath: folder.storePath + ".compacting"))
        #expect(try await folder.store().contents().pending.map(\.id) == [records[2].id])
        #expect(try await store.compact(forwardedBefore: Self.cutoff, minimumDrop: 4) == .init(kept: 1, dropped: 4))
        #expect(!FileManager.default.fileExists(atPath: folder.storePath + ".compacting"))
        let contents = try await folder.store().contents()
        #expect(contents.records.map(\.id) == [records[2].id] && contents.damagedSlots.isEmpty)
        // Appends go on after the rewrite.
        let next = OfflineStoreTests.record(9)
        try await store.append(next)
        #expect(try await folder.store().contents().pending.map(\.id) == [records[2].id, next.id])
    }
}
