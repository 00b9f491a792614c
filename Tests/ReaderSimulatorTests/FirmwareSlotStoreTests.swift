import Foundation
import MPOSCore
import ReaderLink
import ReaderSimulator
import Testing

/// The simulated reader's slots kept in a state directory: what a restarted reader (a new
/// `SimulatedReader` on the same directory, as after `kill -9`) boots and resumes from.
@Suite(.timeLimit(.minutes(1))) struct FirmwareSlotStoreTests {
    static let image = (0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 11 &+ 5) }

    static func directory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("slots-\(UUID().uuidString)").path
    }

    static func paired(_ state: String) async throws -> (SimulatedReader, ReaderConnection) {
        try await SimulatedReaderTests.paired { $0.stateDirectory = state }
    }

    @Test func committedVersionsSurviveARestart() async throws {
        let state = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let (_, connection) = try await Self.paired(state)
        _ = try await connection.request(.updateBegin(try SignedImages.begin(Self.image, version: "2.0.0")))
        _ = try await connection.requestWindowed(WindowedUpdateTests.pieces(of: Self.image), window: 4)
        _ = try await connection.request(.updateVerify)
        #expect(try await connection.request(.updateCommit) == .ack)
        let config = Array("emv parameters".utf8)
        _ = try await connection.request(
            .updateBegin(try SignedImages.begin(config, slot: .configuration, version: "EMV-2027.01")))
        _ = try await connection.request(.updateChunk(offset: 0, bytes: config))
        _ = try await connection.request(.updateVerify)
        #expect(try await connection.request(.updateCommit) == .ack)
        await connection.close()

        let (restarted, again) = try await Self.paired(state)
        #expect(await restarted.activeVersions() == ("2.0.0", "EMV-2027.01"))
        guard case .deviceInfo(let info) = try await again.request(.getDeviceInfo) else {
            Issue.record("getDeviceInfo was not answered with deviceInfo")
            return
        }
        #expect(info.applicationVersion == "2.0.0")
        #expect(info.emvParameterVersion == "EMV-2027.01")
        await again.close()
    }

    @Test func aRestartedReaderResumesAtTheOffsetItAcknowledged() async throws {
        let state = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let (reader, connection) = try await Self.paired(state)
        let begin = try SignedImages.begin(Self.image, version: "2.0.0")
        _ = try await connection.request(.updateBegin(begin))
        let answers = try await connection.requestWindowed(
            Array(WindowedUpdateTests.pieces(of: Self.image).prefix(5)), window: 2)
        guard case .updateAck(let last) = answers.last else {
            Issue.record("no updateAck")
            return
        }
        await reader.powerOff()

        let (restarted, again) = try await Self.paired(state)
        #expect(await restarted.activeVersions().firmware == "1.0.0")
        #expect(
            try await again.request(.updateBegin(begin))
                == .updateAck(UpdateAck(offset: last.offset, status: .success)))
        _ = try await again.requestWindowed(
            WindowedUpdateTests.pieces(of: Self.image, from: Int(last.offset)), window: 4)
        _ = try await again.request(.updateVerify)
        #expect(try await again.request(.updateCommit) == .ack)
        #expect(await restarted.activeVersions().firmware == "2.0.0")
        await again.close()
    }

    @Test func aTornStagedLogIsCutBackToItsLastWholeChunk() async throws {
        let state = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let (reader, connection) = try await Self.paired(state)
        let begin = try SignedImages.begin(Self.image, version: "2.0.0")
        _ = try await connection.request(.updateBegin(begin))
        _ = try await connection.requestWindowed(
            Array(WindowedUpdateTests.pieces(of: Self.image).prefix(3)), window: 1)
        await reader.powerOff()
        // A kill in the middle of the third chunk's record, then garbage where it ended.
        let log = URL(fileURLWithPath: state).appendingPathComponent("firmware.staged.log")
        var bytes = try Data(contentsOf: log)
        bytes.removeLast(1_000)
        bytes.append(contentsOf: [UInt8](repeating: 0xEE, count: 300))
        try bytes.write(to: log)

        let (_, again) = try await Self.paired(state)
        #expect(
            try await again.request(.updateBegin(begin))
                == .updateAck(UpdateAck(offset: 8_192, status: .success)))
        await again.close()
    }

    @Test func aStagedLogOfAnotherImageIsDiscarded() async throws {
        let state = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let (reader, connection) = try await Self.paired(state)
        let begin = try SignedImages.begin(Self.image, version: "2.0.0")
        _ = try await connection.request(.updateBegin(begin))
        _ = try await connection.request(.updateChunk(offset: 0, bytes: Array(Self.image.prefix(4_096))))
        await reader.powerOff()
        let log = URL(fileURLWithPath: state).appendingPathComponent("firmware.staged.log")
        var bytes = try Data(contentsOf: log)
        bytes[0] ^= 0xFF  // the log's image digest no longer matches the announcement
        try bytes.write(to: log)

        let (_, again) = try await Self.paired(state)
        #expect(
            try await again.request(.updateBegin(begin)) == .updateAck(UpdateAck(offset: 0, status: .success))
        )
        await again.close()
    }

    @Test func aDirectoryThatIsAFileOrHoldsDamagedSlotsIsRefused() throws {
        let state = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        try Data("not a directory".utf8).write(to: URL(fileURLWithPath: state))
        #expect(throws: FirmwareSlotStore.StoreError.self) { try FirmwareSlotStore(path: state) }
        try FileManager.default.removeItem(atPath: state)

        let store = try FirmwareSlotStore(path: state)
        try Data("{\"banks\":{}}".utf8).write(
            to: URL(fileURLWithPath: state).appendingPathComponent("slots.json"))
        let factory = FirmwareSlots(
            firmware: .init(version: "1", bytes: [1]), configuration: .init(version: "c", bytes: [2]))
        #expect(throws: FirmwareSlotStore.StoreError.self) { try store.load(defaults: factory) }
    }
}
