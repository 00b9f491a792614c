import Crypto
import MPOSCore
import ReaderLink
import ReaderSimulator
import Testing

/// Update images written with many pieces in flight, against the simulated reader.
@Suite(.timeLimit(.minutes(1))) struct WindowedUpdateTests {
    static let image = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }

    static func pieces(of image: [UInt8], from start: Int = 0) -> [ReaderMessage] {
        stride(from: start, to: image.count, by: 4_096).map { offset in
            .updateChunk(offset: UInt32(offset), bytes: Array(image[offset..<min(offset + 4_096, image.count)]))
        }
    }

    @Test func aWindowedWriteCommitsTheSameImageAsOnePieceAtATime() async throws {
        let (reader, connection) = try await SimulatedReaderTests.paired()
        _ = try await connection.request(.updateBegin(try SignedImages.begin(Self.image, version: "2.0.0")))
        let answers = try await connection.requestWindowed(Self.pieces(of: Self.image), window: 8)
        let offsets = answers.map { answer -> UInt32? in
            if case .updateAck(let ack) = answer, ack.status == .success { ack.offset } else { nil }
        }
        // In order, one answer per piece, each saying what the reader holds after it.
        #expect(offsets == stride(from: 4_096, through: Self.image.count + 4_095, by: 4_096).map { UInt32(min($0, Self.image.count)) })
        _ = try await connection.request(.updateVerify)
        #expect(try await connection.request(.updateCommit) == .ack)
        #expect(await reader.activeVersions().firmware == "2.0.0")
        await connection.close()
    }

    @Test func aGapInTheWindowIsAnsweredWithWhatTheReaderHolds() async throws {
        let (_, connection) = try await SimulatedReaderTests.paired()
        _ = try await connection.request(.updateBegin(try SignedImages.begin(Self.image, version: "2.0.0")))
        var pieces = Self.pieces(of: Self.image)
        pieces.remove(at: 2)  // the reader holds 8 KiB when the piece at 12 KiB arrives
        let answers = try await connection.requestWindowed(Array(pieces.prefix(5)), window: 5)
        let acks = answers.compactMap { answer -> UpdateAck? in if case .updateAck(let ack) = answer { ack } else { nil } }
        #expect(acks.map(\.offset) == [4_096, 8_192, 8_192, 8_192, 8_192])
        #expect(acks.map(\.status) == [.success, .success, .invalidData, .invalidData, .invalidData])

        // Starting again where the reader stands completes the image; a new updateBegin of the
        // same image resumes there instead of starting over.
        let again = try await connection.request(.updateBegin(try SignedImages.begin(Self.image, version: "2.0.0")))
        #expect(again == .updateAck(UpdateAck(offset: 8_192, status: .success)))
        _ = try await connection.requestWindowed(Self.pieces(of: Self.image, from: 8_192), window: 16)
        _ = try await connection.request(.updateVerify)
        #expect(try await connection.request(.updateCommit) == .ack)
        await connection.close()
    }

    @Test func anErrorAnswerInTheWindowThrowsRejected() async throws {
        let (_, connection) = try await SimulatedReaderTests.paired()
        // No update begun: every chunk is refused.
        do {
            _ = try await connection.requestWindowed(Self.pieces(of: Self.image), window: 4)
            Issue.record("chunks without an update were accepted")
        } catch {
            #expect(error == .rejected(.commandNotAllowed, detail: "no update in progress"))
        }
        // The link still works: the abandoned answers were ignored.
        #expect(try await connection.request(.ping) == .pong)
        await connection.close()
    }

    @Test func anImageLargerThanTheReaderHasRoomForIsRefusedAtTheStart() async throws {
        let (_, connection) = try await SimulatedReaderTests.paired { $0.updateCapacity = 50_000 }
        let begin = try SignedImages.begin(Self.image, version: "2.0.0")
        let refusal = await SimulatedReaderTests.refusal(of: .updateBegin(begin), on: connection)
        #expect(refusal?.status == .updateNotEnoughSpace)
        #expect(refusal?.detail == "the image has \(Self.image.count) bytes, the reader room for 50000")
        await connection.close()
    }
}
