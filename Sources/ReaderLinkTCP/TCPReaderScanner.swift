import NIOCore
import NIOPosix
import ReaderLink

/// Where a ``TCPReaderScanner`` sends its probes: a broadcast address, or one host.
public struct DiscoveryProbeTarget: Sendable, Hashable, CustomStringConvertible {
    /// A host name or address ("255.255.255.255", "127.0.0.1", "192.168.1.20").
    public var host: String
    /// The UDP port the readers there listen on.
    public var port: Int

    /// A target.
    public init(host: String, port: Int = DiscoveryDatagram.defaultPort) {
        self.host = host
        self.port = port
    }

    /// Every reader on the local network segment, on the default port.
    public static let broadcast = DiscoveryProbeTarget(host: "255.255.255.255")
    /// A reader (or the reader emulator) on this machine, on the default port.
    public static let loopback = DiscoveryProbeTarget(host: "127.0.0.1")

    /// "HOST:PORT".
    public var description: String { "\(host):\(port)" }
}

/// Finds ReaderLink readers on the local network with UDP probes (docs/reader-protocol.md §9).
///
/// Each scan binds its own UDP socket on a free port, sends a probe to every target at
/// once and again every `probeInterval` (a datagram may be lost), and yields a
/// ``DiscoveredReader`` for each reply to its probes; the reader's address is the reply's
/// source, and its `open` connects to the TCP port the reply names. The socket closes when
/// the consumer stops the scan.
///
/// ```swift
/// let scanner = TCPReaderScanner(targets: [.broadcast, .loopback])
/// let readers = await terminal.discoverReaders(scanners: [scanner])
/// ```
public struct TCPReaderScanner: ReaderScanner {
    /// Where the probes go.
    public var targets: [DiscoveryProbeTarget]
    /// The wait between rounds of probes.
    public var probeInterval: Duration
    /// How long `open` waits for the TCP connection.
    public var connectTimeout: Duration
    private let clock: any Clock<Duration>

    /// A scanner.
    ///
    /// - Parameters:
    ///   - targets: broadcast and loopback on the default port unless told otherwise.
    ///   - probeInterval: 1 s by default.
    ///   - connectTimeout: 15 s by default.
    ///   - clock: the clock the probe rounds run on.
    public init(
        targets: [DiscoveryProbeTarget] = [.broadcast, .loopback], probeInterval: Duration = .seconds(1),
        connectTimeout: Duration = .seconds(15), clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.targets = targets
        self.probeInterval = probeInterval
        self.connectTimeout = connectTimeout
        self.clock = clock
    }

    /// Starts probing; see the type's description.
    public func scan() -> AsyncStream<DiscoveredReader> {
        let (stream, continuation) = AsyncStream.makeStream(of: DiscoveredReader.self)
        // Unstructured: the probing outlives this call; the stream's end cancels it.
        let task = Task { await probe(into: continuation) }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Binds, probes in rounds until cancelled, then closes.
    private func probe(into continuation: AsyncStream<DiscoveredReader>.Continuation) async {
        defer { continuation.finish() }
        let token = UInt32.random(in: .min ... .max)
        let connectTimeout = self.connectTimeout
        let bootstrap = DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.socketOption(.so_broadcast), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        ReplyCollectingHandler(
                            token: token, connectTimeout: connectTimeout, found: continuation))
                }
            }
        guard let channel = try? await bootstrap.bind(host: "0.0.0.0", port: 0).get() else { return }
        let addresses = targets.compactMap {
            try? SocketAddress.makeAddressResolvingHost($0.host, port: $0.port)
        }
        let probe = DiscoveryDatagram.probe(token: token).encoded()
        while !Task.isCancelled {
            for address in addresses {
                // A target that cannot be reached (no broadcast route) only loses its probe.
                channel.writeAndFlush(
                    AddressedEnvelope(remoteAddress: address, data: channel.allocator.buffer(bytes: probe)),
                    promise: nil)
            }
            do { try await clock.sleep(for: probeInterval) } catch { break }
        }
        try? await channel.close()
    }
}

/// Turns replies to this scan's probes into discovered readers; drops everything else.
final class ReplyCollectingHandler: ChannelInboundHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>

    private let token: UInt32
    private let connectTimeout: Duration
    private let found: AsyncStream<DiscoveredReader>.Continuation

    init(token: UInt32, connectTimeout: Duration, found: AsyncStream<DiscoveredReader>.Continuation) {
        self.token = token
        self.connectTimeout = connectTimeout
        self.found = found
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = unwrapInboundIn(data)
        guard case .reply(let token, let announcement, let port)? = DiscoveryDatagram.decode(envelope.data),
            token == self.token, let host = envelope.remoteAddress.ipAddress
        else { return }
        let timeout = connectTimeout
        found.yield(
            DiscoveredReader(announcement: announcement, transportKind: .tcp, address: "\(host):\(port)") {
                try await TCPTransport.connect(host: host, port: Int(port), connectTimeout: timeout)
            })
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // An unreachable target must not end the scan.
    }
}
