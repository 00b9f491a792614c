import Foundation
import MPOSCore
import ReaderLink
import ReaderSimulator
import Testing

/// The simulated reader's update faults: refusals with a chosen status and detail, and an
/// image that fails to boot, on the wire as the SDK sees them.
@Suite(.timeLimit(.minutes(1))) struct UpdateFaultTests {
    static let image = (0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 5 &+ 1) }

    /// Writes, verifies and commits ``image`` as firmware `version`.
    static func install(_ version: String, on connection: ReaderConnection) async throws {
        _ = try await connection.request(.updateBegin(try SignedImages.begin(Self.image, version: version)))
        _ = try await connection.requestWindowed(WindowedUpdateTests.pieces(of: Self.image), window: 4)
        _ = try await connection.request(.updateVerify)
        #expect(try await connection.request(.updateCommit) == .ack)
    }

    @Test func aRefusalAnswersWithItsStatusAndDetailAsOftenAsAskedAndTheReaderKeepsWhatItHeld() async throws {
        let (reader, connection) = try await SimulatedReaderTests.paired()
        let begin = try SignedImages.begin(Self.image, version: "2.0.0")
        _ = try await connection.request(.updateBegin(begin))
        let pieces = WindowedUpdateTests.pieces(of: Self.image)
        _ = try await connection.request(pieces[0])
        await reader.setUpdateRefusals([
            UpdateRefusal(.chunk, status: .updateWriteFailed, detail: "flash busy", times: 2)
        ])
        for _ in 0..<2 {
            let refusal = await SimulatedReaderTests.refusal(of: pieces[1], on: connection)
            #expect(refusal?.status == .updateWriteFailed)
            #expect(refusal?.detail == "flash busy")
        }
        // Begun again, the reader answers the bytes it still holds; the rest goes through.
        #expect(
            try await connection.request(.updateBegin(begin))
                == .updateAck(UpdateAck(offset: 4_096, status: .success)))
        _ = try await connection.requestWindowed(
            WindowedUpdateTests.pieces(of: Self.image, from: 4_096), window: 4)
        _ = try await connection.request(.updateVerify)
        #expect(try await connection.request(.updateCommit) == .ack)
        #expect(await reader.activeVersions().firmware == "2.0.0")
        await connection.close()
    }

    /// Restarts the reader and waits until it is back on its feet (its link then closes).
    static func reboot(_ connection: ReaderConnection) async throws {
        _ = try await connection.request(.reboot)
        for await _ in connection.events {}
    }

    @Test func anImageThatFailsToBootLeavesTheReaderOnTheOldOneAndSoDoesItsFlash() async throws {
        let state = FirmwareSlotStoreTests.directory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let (reader, connection) = try await SimulatedReaderTests.paired {
            $0.stateDirectory = state
            $0.imagesFailingToBoot = 1
        }
        try await Self.install("2.0.0", on: connection)
        #expect(await reader.activeVersions().firmware == "2.0.0")
        try await Self.reboot(connection)
        #expect(await reader.activeVersions().firmware == "1.0.0")
        #expect(await reader.logLines.contains("firmware 2.0.0 failed to boot: back on 1.0.0"))

        // What a reader booted from the same flash runs, and the next image boots.
        let (restarted, again) = try await FirmwareSlotStoreTests.paired(state)
        #expect(await restarted.activeVersions().firmware == "1.0.0")
        try await Self.install("2.0.1", on: again)
        try await Self.reboot(again)
        #expect(await restarted.activeVersions().firmware == "2.0.1")
    }

    @Test func aReaderThatDeclinesBeforeTheCardPromptNeverAsksForACard() async throws {
        let (_, connection) = try await SimulatedReaderTests.paired { $0.declinesBeforeCardPrompt = true }
        let run = try await SimulatedReaderTests.transact(connection, amount: 12_00)
        #expect(run.outcome?.cryptogramType == .aac)
        #expect(run.outcome?.status == .processingError)
        #expect(run.statuses == [.processingError])
        await connection.close()
    }
}
