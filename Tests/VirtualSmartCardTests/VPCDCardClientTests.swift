import MPOSTestSupport
import ReaderLinkTCP
import ReaderSimulator
import SandboxCards
import Testing
import VirtualSmartCard

/// `mpos card emulate`'s client against a fake vpcd on a loopback socket: the test plays
/// pcscd's vpcd driver, which listens and waits for the card to connect.
@Suite(.timeLimit(.minutes(1))) struct VPCDCardClientTests {
    static let selectPPSE: [UInt8] = [0x00, 0xA4, 0x04, 0x00, 0x0E] + Array("2PAY.SYS.DDF01".utf8) + [0x00]

    /// A fake vpcd: accepts the card's connection and exchanges framed messages with it.
    struct FakeVPCD {
        let server: TCPReaderServer
        let connection: TCPTransport
        var frames = VPCDFrames()
        var iterator: AsyncStream<[UInt8]>.AsyncIterator
        var received: [[UInt8]] = []

        static func start(
            _ client: VPCDCardClient
        ) async throws -> (FakeVPCD, Task<VPCDCardClient.End, any Error>) {
            let server = try await TCPReaderServer.bind(host: "127.0.0.1", port: 0)
            let port = server.port
            let card = Task { try await client.run(host: "127.0.0.1", port: port) }
            var connections = server.connections.makeAsyncIterator()
            let connection = try #require(await connections.next())
            return (
                FakeVPCD(
                    server: server, connection: connection, iterator: connection.incoming.makeAsyncIterator()),
                card
            )
        }

        /// Sends one framed message. The server hands a connection out before its channel is
        /// active, so the first send may have to wait for the event loop to activate it.
        func send(_ message: [UInt8]) async throws {
            let frame = VPCDFrames.frame(message)
            for _ in 0..<10_000 {
                if (try? connection.send(frame)) != nil { return }
                await Task.yield()
            }
            try connection.send(frame)
        }

        /// The next message from the card; `nil` when it closed the connection.
        mutating func next() async -> [UInt8]? {
            while received.isEmpty {
                guard let chunk = await iterator.next() else { return nil }
                received += frames.append(chunk)
            }
            return received.removeFirst()
        }

        func close() async {
            await connection.close()
            await server.close()
        }
    }

    static func client(
        _ id: String = "visa-credit", _ options: APDUResponder.Options = .init(), delay: Duration = .zero,
        clock: any Clock<Duration> = ContinuousClock()
    ) throws -> VPCDCardClient {
        let card = try #require(SandboxCards.card(id: id))
        return VPCDCardClient(
            slot: VirtualCardSlot(card: APDUResponder(card: try SimulatedCard(card: card), options: options)),
            delay: delay, clock: clock)
    }

    @Test func theCardAnswersTheATRAndAPDUsButNotPowerControls() async throws {
        var (vpcd, card) = try await FakeVPCD.start(try Self.client())
        try await vpcd.send([0x01])
        try await vpcd.send([0x04])
        #expect(await vpcd.next() == [0x3B, 0x80, 0x80, 0x01, 0x01])
        try await vpcd.send(Self.selectPPSE)
        let answer = try #require(await vpcd.next())
        #expect(answer.suffix(2) == [0x90, 0x00])
        #expect(answer.first == 0x6F)
        await vpcd.close()
        #expect(try await card.value == .closedByReader)
    }

    @Test func aT0CardHasAT0ATRAndAnswers61WithTheLengthWaiting() async throws {
        var (vpcd, card) = try await FakeVPCD.start(try Self.client("visa-credit", .init(t0: true)))
        try await vpcd.send([0x04])
        #expect(await vpcd.next() == [0x3B, 0x00])
        try await vpcd.send(Self.selectPPSE)
        let answer = try #require(await vpcd.next())
        #expect(answer.count == 2)
        #expect(answer.first == 0x61)
        try await vpcd.send([0x00, 0xC0, 0x00, 0x00, answer[1]])
        let data = try #require(await vpcd.next())
        #expect(data.count == Int(answer[1]) + 2)
        #expect(data.suffix(2) == [0x90, 0x00])
        await vpcd.close()
        _ = try await card.value
    }

    @Test func aSlowCardAnswersOnlyWhenItsClockHasRunTheDelay() async throws {
        let clock = ManualClock()
        var (vpcd, card) = try await FakeVPCD.start(try Self.client(delay: .milliseconds(400), clock: clock))
        try await vpcd.send(Self.selectPPSE)
        while clock.sleeperCount == 0 { await Task.yield() }
        #expect(clock.nextDeadline == clock.now.advanced(by: .milliseconds(400)))
        clock.advance(by: .milliseconds(400))
        #expect(await vpcd.next()?.suffix(2) == [0x90, 0x00])
        await vpcd.close()
        _ = try await card.value
    }

    @Test func aCardPulledOutAfterTwoCommandsClosesTheConnection() async throws {
        var (vpcd, card) = try await FakeVPCD.start(try Self.client("visa-credit", .init(pullAfter: 2)))
        try await vpcd.send([0x01])
        try await vpcd.send(Self.selectPPSE)
        #expect(await vpcd.next()?.suffix(2) == [0x90, 0x00])
        try await vpcd.send(Self.selectPPSE)
        #expect(await vpcd.next()?.suffix(2) == [0x90, 0x00])
        #expect(await vpcd.next() == nil)
        #expect(try await card.value == .pulledOut)
        await vpcd.close()
    }

    @Test func framesSplitAnywhereAreReassembled() {
        var frames = VPCDFrames()
        let bytes = VPCDFrames.frame([1]) + VPCDFrames.frame([0xAA, 0xBB, 0xCC])
        var messages: [[UInt8]] = []
        for byte in bytes { messages += frames.append([byte]) }
        #expect(messages == [[1], [0xAA, 0xBB, 0xCC]])
    }
}
