import NIOCore
import NIOPosix
import ReaderLink

/// The reader's side of discovery (docs/reader-protocol.md §9): answers each valid probe on a
/// UDP port with a reply naming the reader and its ReaderLink TCP port. Anything else that
/// arrives (malformed datagrams, replies, other protocols) is dropped without an answer.
///
/// ```swift
/// let responder = try await ReaderDiscoveryResponder.bind(
///     host: "127.0.0.1", port: 0, announcement: announcement, tcpPort: server.port)
/// print("discovery on 127.0.0.1:\(responder.port)")
/// ```
public final class ReaderDiscoveryResponder: Sendable {
    /// The bound UDP port (the one the system picked when 0 was asked for).
    public let port: Int
    /// The bound host.
    public let host: String
    private let channel: any Channel

    private init(channel: any Channel, host: String, port: Int) {
        self.channel = channel
        self.host = host
        self.port = port
    }

    /// Binds the UDP socket and starts answering.
    ///
    /// - Parameters:
    ///   - host: the address to listen on: "0.0.0.0" hears broadcasts on every interface,
    ///     "127.0.0.1" only probes from this machine.
    ///   - port: the UDP port, ``DiscoveryDatagram/defaultPort`` unless told otherwise; 0 picks
    ///     a free one (see `port`).
    ///   - announcement: what the replies say about the reader.
    ///   - tcpPort: the port the reader's ReaderLink TCP server listens on.
    /// - Throws: `ReaderLinkError.notAllowed` naming the address when it cannot be bound, or
    ///   when `tcpPort` is not a valid port.
    public static func bind(
        host: String = "0.0.0.0", port: Int = DiscoveryDatagram.defaultPort, announcement: ReaderAnnouncement,
        tcpPort: Int, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws(ReaderLinkError) -> ReaderDiscoveryResponder {
        guard let replyPort = UInt16(exactly: tcpPort), replyPort != 0 else {
            throw .notAllowed(detail: "\(tcpPort) is not a TCP port")
        }
        let bootstrap = DatagramBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        ProbeAnsweringHandler(announcement: announcement, tcpPort: replyPort))
                }
            }
        do {
            let channel = try await bootstrap.bind(host: host, port: port).get()
            return ReaderDiscoveryResponder(
                channel: channel, host: host, port: channel.localAddress?.port ?? port)
        } catch {
            throw .notAllowed(detail: "cannot listen for discovery on \(host):\(port): \(error)")
        }
    }

    /// Stops answering and releases the port.
    public func close() async {
        try? await channel.close()
    }
}

/// Answers probes with the reader's reply, sent back to the probe's source.
final class ProbeAnsweringHandler: ChannelInboundHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    typealias OutboundOut = AddressedEnvelope<ByteBuffer>

    private let announcement: ReaderAnnouncement
    private let tcpPort: UInt16

    init(announcement: ReaderAnnouncement, tcpPort: UInt16) {
        self.announcement = announcement
        self.tcpPort = tcpPort
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = unwrapInboundIn(data)
        guard case .probe(let token)? = DiscoveryDatagram.decode(envelope.data) else { return }
        let reply = DiscoveryDatagram.reply(token: token, announcement: announcement, tcpPort: tcpPort)
            .encoded()
        let outbound = AddressedEnvelope(
            remoteAddress: envelope.remoteAddress, data: context.channel.allocator.buffer(bytes: reply))
        context.writeAndFlush(wrapOutboundOut(outbound), promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A datagram socket outlives a bad read or an unreachable peer: keep answering.
    }
}

extension DiscoveryDatagram {
    /// The datagram in `buffer`, or nil when it is not a valid one (it is then ignored).
    static func decode(_ buffer: ByteBuffer) -> DiscoveryDatagram? {
        guard buffer.readableBytes <= maximumLength else { return nil }
        return try? DiscoveryDatagram(decoding: Array(buffer.readableBytesView))
    }
}
