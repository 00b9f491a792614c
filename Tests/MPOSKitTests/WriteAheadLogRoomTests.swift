import Foundation
import Testing

@testable import MPOSKit

/// Reserving room in a log only ever appends zeros: the bytes already there stay as they were.
@Suite(.timeLimit(.minutes(2))) struct WriteAheadLogRoomTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "wal-room-\(UUID().uuidString)")

    func file(_ bytes: [UInt8]) throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("log-wal").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func zerosAreAppendedUpToTheSizeAndNothingElseChanges() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try file([1, 2, 3])
        // More than one 64 KiB chunk, and not a multiple of it.
        try WriteAheadLogRoom.reserve(150_001, inLogAt: path)
        let grown = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(grown.count == 150_001)
        #expect(Array(grown.prefix(3)) == [1, 2, 3])
        #expect(grown.dropFirst(3).allSatisfy { $0 == 0 })
        // Long enough already: untouched.
        try WriteAheadLogRoom.reserve(10, inLogAt: path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == 150_001)
    }

    @Test func aMissingLogIsNotCreated() throws {
        let path = directory.appendingPathComponent("none-wal").path
        try WriteAheadLogRoom.reserve(4096, inLogAt: path)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func roomCoversACheckpointIntervalOfFramesAndAnEighth() {
        #expect(WriteAheadLogRoom.bytes(pages: 1, pageSize: 4096) == 32 + 4120)
        #expect(WriteAheadLogRoom.bytes(pages: 1000, pageSize: 4096) == 32 + 4_120_000)
    }
}
