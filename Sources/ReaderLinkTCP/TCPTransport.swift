import MPOSCore
import NIOCore
import NIOPosix
import ReaderLink

/// ReaderLink over one TCP connection. The SDK connects to a reader (or the reader emulator)
/// with `connect(host:port:)`; `TCPReaderServer` hands one to its handler per accepted client.
///
/// Bytes arrive on `incoming` in the order the socket delivers them; chunk boundaries mean
/// nothing, ReaderLink's frame decoder reassembles. `send` completes when the bytes are written
/// to the socket's queue.
public final class TCPTransport: ReaderTransport, Sendable {
    /// Nil: a socket takes writes of any length.
    public let maximumWriteLength: Int? = nil
    /// Bytes from the peer, as the socket reads them; finishes when the connection closes.
    public let incoming: AsyncStream<[UInt8]>
    let channel: any Channel

    /// "HOST:PORT" of the peer, for logs and errors.
    public let peerDescription: String
    /// The peer's "HOST:PORT", as a reader names the SDK that holds it.
    public var peerName: String? { peerDescription }

    init(channel: any Channel, incoming: AsyncStream<[UInt8]>) {
        self.channel = channel
        self.incoming = incoming
        self.peerDescription = channel.remoteAddress.map { "\($0.ipAddress ?? "?"):\($0.port ?? 0)" } ?? "?"
    }

    /// Opens a TCP connection to a reader.
    ///
    /// - Parameters:
    ///   - host: a host name or address, e.g. "127.0.0.1".
    ///   - port: the reader's port.
    ///   - connectTimeout: how long to wait for the connection.
    /// - Throws: `ReaderLinkError.linkClosed` when nothing accepts the connection,
    ///   `ReaderLinkError.timeout` when the connection does not complete in time.
    public static func connect(
        host: String, port: Int, connectTimeout: Duration = .seconds(15),
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws(ReaderLinkError) -> TCPTransport {
        let (incoming, pipe) = AsyncStream.makeStream(of: [UInt8].self)
        let millis = Int64(
            connectTimeout.components.seconds * 1000 + connectTimeout.components.attoseconds
                / 1_000_000_000_000_000)
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(.milliseconds(max(1, millis)))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(InboundBytesHandler(pipe))
                }
            }
        do {
            let channel = try await bootstrap.connect(host: host, port: port).get()
            return TCPTransport(channel: channel, incoming: incoming)
        } catch let error as ChannelError {
            pipe.finish()
            if case .connectTimeout = error { throw .timeout }
            throw .linkClosed
        } catch {
            pipe.finish()
            throw .linkClosed
        }
    }

    /// Queues the bytes on the socket, in call order, and returns without waiting for the
    /// write to finish: TCP keeps them in order, and a failed write closes the channel, which
    /// finishes `incoming` and fails the next `send`.
    public func send(_ bytes: [UInt8]) throws(ReaderLinkError) {
        guard channel.isActive else { throw .linkClosed }
        let buffer = channel.allocator.buffer(bytes: bytes)
        channel.writeAndFlush(buffer, promise: nil)
    }

    /// Closes the connection; `incoming` finishes on both sides.
    public func close() async {
        try? await channel.close()
    }
}

/// Turns the socket's reads into the transport's incoming stream and finishes it when the
/// connection goes away. Backpressure is left to TCP: the stream buffers what arrives.
final class InboundBytesHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    private let pipe: AsyncStream<[UInt8]>.Continuation

    init(_ pipe: AsyncStream<[UInt8]>.Continuation) {
        self.pipe = pipe
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        if let bytes = buffer.readBytes(length: buffer.readableBytes), !bytes.isEmpty {
            pipe.yield(bytes)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        pipe.finish()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A reset or a read error ends the link; ReaderLink sees the stream finish.
        pipe.finish()
        context.close(promise: nil)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        pipe.finish()
    }
}
