import NIOCore
import NIOPosix
import ReaderLink
import ReaderLinkTCP
import Testing

/// Discovery over real UDP sockets on loopback, ephemeral ports.
@Suite(.timeLimit(.minutes(1))) struct ReaderDiscoveryUDPTests {
    static let announcement = ReaderAnnouncement(name: "Counter", serialNumber: "UDP-1", model: "R1")

    /// The first reader a scan of `targets` yields, then the scan is stopped.
    static func firstFound(probing targets: [DiscoveryProbeTarget]) async -> DiscoveredReader? {
        var scan = TCPReaderScanner(targets: targets, probeInterval: .milliseconds(50)).scan()
            .makeAsyncIterator()
        return await scan.next()
    }

    @Test func aScannerFindsAResponderAndOpensItsTCPPort() async throws {
        let server = try await TCPReaderServer.bind(host: "127.0.0.1", port: 0)
        let responder = try await ReaderDiscoveryResponder.bind(
            host: "127.0.0.1", port: 0, announcement: Self.announcement, tcpPort: server.port)
        #expect(responder.port > 0 && responder.port != DiscoveryDatagram.defaultPort)
        // An unreachable target beside the real one costs nothing.
        let found = try #require(
            await Self.firstFound(probing: [
                DiscoveryProbeTarget(host: "127.0.0.1", port: 9),
                DiscoveryProbeTarget(host: "127.0.0.1", port: responder.port),
            ]))
        #expect(found.id == "tcp:UDP-1" && found.transportKind == .tcp)
        #expect(found.announcement == Self.announcement)
        #expect(found.address == "127.0.0.1:\(server.port)")

        let link = try await found.open()
        var accepted = server.connections.makeAsyncIterator()
        let peer = try #require(await accepted.next())
        try link.send([1, 2, 3])
        #expect(await TCPTransportTests.read(3, from: peer.incoming) == [1, 2, 3])
        await link.close()
        await responder.close()
        await server.close()
    }

    @Test func malformedDatagramsGetNoAnswerAndTheResponderCarriesOn() async throws {
        let responder = try await ReaderDiscoveryResponder.bind(
            host: "127.0.0.1", port: 0, announcement: Self.announcement, tcpPort: 4000)
        let (received, sink) = AsyncStream.makeStream(of: [UInt8].self)
        let channel = try await DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(DatagramCollector(sink))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let target = try SocketAddress(ipAddress: "127.0.0.1", port: responder.port)
        let garbage: [[UInt8]] = [
            [], [0x4D, 0x50, 0x52], Array("hello".utf8),
            DiscoveryDatagram.reply(token: 1, announcement: Self.announcement, tcpPort: 1).encoded(),
            DiscoveryDatagram.probe(token: 1).encoded() + [0], [UInt8](repeating: 0x4D, count: 2_000),
            DiscoveryDatagram.probe(token: 99).encoded(),
        ]
        for bytes in garbage {
            try await channel.writeAndFlush(
                AddressedEnvelope(remoteAddress: target, data: channel.allocator.buffer(bytes: bytes)))
        }
        // The only answer is the one to the last, valid probe.
        var answers = received.makeAsyncIterator()
        let first = try #require(await answers.next())
        #expect(
            try DiscoveryDatagram(decoding: first)
                == .reply(token: 99, announcement: Self.announcement, tcpPort: 4000))
        try await channel.close()
        await responder.close()
    }

    @Test func aResponderRefusesAnInvalidTCPPort() async {
        await #expect(throws: ReaderLinkError.self) {
            try await ReaderDiscoveryResponder.bind(
                host: "127.0.0.1", port: 0, announcement: Self.announcement, tcpPort: 0)
        }
    }
}

/// Hands every datagram a test socket receives to a stream.
final class DatagramCollector: ChannelInboundHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    private let sink: AsyncStream<[UInt8]>.Continuation

    init(_ sink: AsyncStream<[UInt8]>.Continuation) { self.sink = sink }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        sink.yield(Array(unwrapInboundIn(data).data.readableBytesView))
    }
}
