import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// One TCP connection (TLS when asked) that writes exactly the bytes a test gives, as a slow or
/// hostile client would, keeps what the gateway answers, and notes when the gateway closes it.
final class RawGatewayConnection: Sendable {
    private let channel: any Channel
    private let inbox: Inbox

    private init(channel: any Channel, inbox: Inbox) {
        self.channel = channel
        self.inbox = inbox
    }

    /// Connects to 127.0.0.1:`port`, through TLS with `tls`; `onConnect` is written on the event
    /// loop the moment the connection is up, so no wait of the test's own tasks can delay it.
    static func open(port: Int, tls: TLSConfiguration? = nil, onConnect: String? = nil) async throws
        -> RawGatewayConnection
    {
        let inbox = Inbox()
        let context = try tls.map { try NIOSSLContext(configuration: $0) }
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(5))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let context {
                        try channel.pipeline.syncOperations.addHandler(
                            try NIOSSLClientHandler(context: context, serverHostname: nil))
                    }
                    try channel.pipeline.syncOperations.addHandler(InboxHandler(inbox))
                    if let onConnect {
                        try channel.pipeline.syncOperations.addHandler(SendWhenActive(onConnect))
                    }
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        return RawGatewayConnection(channel: channel, inbox: inbox)
    }

    /// Writes `text` now.
    func send(_ text: String) async throws {
        try await channel.writeAndFlush(ByteBuffer(string: text))
    }

    /// Everything the gateway sent so far.
    var received: String { inbox.state.withLock { String(decoding: $0.bytes, as: UTF8.self) } }

    /// When the gateway closed the connection; nil while it is open.
    var closedAt: ContinuousClock.Instant? { inbox.state.withLock { $0.closedAt } }

    /// Waits at most `limit` for `condition`, looking every 20 ms; whether it came true.
    func wait(atMost limit: Duration, until condition: (RawGatewayConnection) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if condition(self) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition(self)
    }

    /// Waits at most `limit` for a whole response (head and a `Content-Length` body); its text.
    func response(within limit: Duration = .seconds(5)) async -> String? {
        let complete = await wait(atMost: limit) { connection in
            Self.isCompleteResponse(connection.received)
        }
        return complete ? received : nil
    }

    /// Closes the connection from this side, if the gateway has not.
    func close() async {
        try? await channel.close()
    }

    private static func isCompleteResponse(_ text: String) -> Bool {
        guard let end = text.range(of: "\r\n\r\n") else { return false }
        let head = text[..<end.lowerBound].lowercased()
        let length =
            head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        return text.utf8.count - text[..<end.upperBound].utf8.count >= length
    }

    /// Writes its bytes once the channel is active, then stays out of the way.
    private final class SendWhenActive: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let text: String
        init(_ text: String) { self.text = text }
        func channelActive(context: ChannelHandlerContext) {
            context.writeAndFlush(NIOAny(ByteBuffer(string: text)), promise: nil)
            context.fireChannelActive()
        }
    }

    private final class Inbox: Sendable {
        let state = Mutex<(bytes: [UInt8], closedAt: ContinuousClock.Instant?)>(([], nil))
    }

    private final class InboxHandler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let inbox: Inbox

        init(_ inbox: Inbox) { self.inbox = inbox }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let bytes = Array(buffer: unwrapInboundIn(data))
            inbox.state.withLock { $0.bytes += bytes }
        }

        func channelInactive(context: ChannelHandlerContext) {
            inbox.state.withLock { $0.closedAt = .now }
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}
