import MPOSCore
import NIOCore
import NIOPosix
import ReaderLink

/// Accepts TCP connections for a reader (the reader emulator, or a bridge to a real reader)
/// and hands each one to the caller as a `TCPTransport`.
///
/// ```swift
/// let server = try await TCPReaderServer.bind(host: "127.0.0.1", port: 0)
/// print("listening on 127.0.0.1:\(server.port)")
/// for await client in server.connections { Task { await serve(client) } }
/// ```
public final class TCPReaderServer: Sendable {
    /// The bound port (the one the system picked when 0 was asked for).
    public let port: Int
    /// The bound host.
    public let host: String
    /// One transport per accepted connection. Finishes when the server closes.
    public let connections: AsyncStream<TCPTransport>

    private let channel: any Channel
    private let continuation: AsyncStream<TCPTransport>.Continuation

    private init(
        channel: any Channel, host: String, port: Int,
        connections: AsyncStream<TCPTransport>, continuation: AsyncStream<TCPTransport>.Continuation
    ) {
        self.channel = channel
        self.host = host
        self.port = port
        self.connections = connections
        self.continuation = continuation
    }

    /// Binds a listening socket.
    ///
    /// - Parameters:
    ///   - host: the address to listen on; the emulator uses "127.0.0.1".
    ///   - port: the port, or 0 to let the system pick a free one (see `port`).
    /// - Throws: `ReaderLinkError.notAllowed` naming the address when it cannot be bound.
    public static func bind(
        host: String = "127.0.0.1", port: Int = 0,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws(ReaderLinkError) -> TCPReaderServer {
        let (stream, continuation) = AsyncStream.makeStream(of: TCPTransport.self)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    let (bytes, sink) = AsyncStream.makeStream(of: [UInt8].self)
                    try child.pipeline.syncOperations.addHandler(InboundBytesHandler(sink))
                    continuation.yield(TCPTransport(channel: child, incoming: bytes))
                }
            }
        do {
            let channel = try await bootstrap.bind(host: host, port: port).get()
            let bound = channel.localAddress?.port ?? port
            channel.closeFuture.whenComplete { _ in continuation.finish() }
            return TCPReaderServer(
                channel: channel, host: host, port: bound, connections: stream, continuation: continuation)
        } catch {
            continuation.finish()
            throw .notAllowed(detail: "cannot listen on \(host):\(port): \(error)")
        }
    }

    /// Stops accepting connections. Connections already handed out stay open until their
    /// owners close them.
    public func close() async {
        continuation.finish()
        try? await channel.close()
    }
}
