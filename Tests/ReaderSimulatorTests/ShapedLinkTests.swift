import Foundation
import ReaderLink
import ReaderSimulator
import Synchronization
import Testing

/// The simulated reader behind a slow link: pieces no larger than the MTU, no faster than the
/// rate, and still the same protocol.
@Suite(.timeLimit(.minutes(1))) struct ShapedLinkTests {
    @Test func aReaderBehindASlowLinkAnswersAndItsPiecesFitTheMTU() async throws {
        let secret = try SharedSecret(hex: SimulatedReaderConfiguration.sandboxSecretHex)
        var configuration = SimulatedReaderConfiguration(secret: secret)
        configuration.link = LinkProfile(bytesPerSecond: 40_000, mtu: 180, oneWayDelay: .milliseconds(5))
        let reader = SimulatedReader(configuration: configuration)
        let (sdkSide, readerSide) = InProcessTransport.makePair()
        let recorder = PieceRecorder(sdkSide)
        Task { await reader.serve(readerSide) }
        let connection = try await ReaderConnection.open(transport: recorder, secret: secret)

        // 20 kB of pieces at 40 kB/s cannot cross in less than half a second.
        let image = [UInt8](repeating: 0x5A, count: 20_000)
        _ = try await connection.request(.updateBegin(UpdateBegin(
            slot: .firmware, size: UInt32(image.count), sha256: FirmwareSlots.sha256(image), version: "9")))
        let started = ContinuousClock.now
        let pieces = stride(from: 0, to: image.count, by: 4_096).map { offset in
            ReaderMessage.updateChunk(offset: UInt32(offset), bytes: Array(image[offset..<min(offset + 4_096, image.count)]))
        }
        let answers = try await connection.requestWindowed(pieces, window: 8)
        #expect(ContinuousClock.now - started >= .milliseconds(500))
        #expect(answers.last == .updateAck(UpdateAck(offset: 20_000, status: .success)))
        #expect(try await connection.request(.ping) == .pong)
        let sizes = recorder.sizes()
        #expect(!sizes.isEmpty)
        #expect(sizes.allSatisfy { $0 <= 180 }, "the reader sent pieces larger than the MTU: \(sizes.max() ?? 0)")
        await connection.close()
    }
}

/// The SDK's side of a link, recording the size of every piece that arrives from the reader.
private final class PieceRecorder: ReaderTransport {
    private let base: any ReaderTransport
    private let recorded = RecordedSizes()
    let incoming: AsyncStream<[UInt8]>

    init(_ base: any ReaderTransport) {
        self.base = base
        let (stream, sink) = AsyncStream.makeStream(of: [UInt8].self)
        incoming = stream
        let recorded = self.recorded
        Task {
            for await chunk in base.incoming {
                recorded.add(chunk.count)
                sink.yield(chunk)
            }
            sink.finish()
        }
    }

    var maximumWriteLength: Int? { base.maximumWriteLength }
    func send(_ bytes: [UInt8]) throws(ReaderLinkError) { try base.send(bytes) }
    func close() async { await base.close() }
    func sizes() -> [Int] { recorded.all() }
}


private final class RecordedSizes: Sendable {
    private let sizes = Mutex<[Int]>([])
    func add(_ size: Int) { sizes.withLock { $0.append(size) } }
    func all() -> [Int] { sizes.withLock { $0 } }
}
