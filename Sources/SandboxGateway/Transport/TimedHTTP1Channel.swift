import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore

/// Hummingbird's HTTP/1.1 channel with the gateway's connection timeouts: its own idle
/// timeout, and the request head and body timeouts of ``RequestTimeoutHandler``, whose
/// ``RequestBytesAnnouncer`` must sit before the HTTP codec, where no configuration of
/// `HTTP1Channel` reaches.
struct TimedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let base: HTTP1Channel

    init(responder: @escaping HTTPChannelHandler.Responder, timeouts: GatewayConnectionTimeouts) {
        base = HTTP1Channel(
            responder: responder,
            configuration: .init(
                additionalChannelHandlers: [RequestTimeoutHandler(timeouts)],
                idleTimeout: TimeAmount(timeouts.idle)))
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(RequestBytesAnnouncer())
        }.flatMap {
            base.setup(channel: channel, logger: logger)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

extension SandboxGatewayConfiguration {
    /// HTTP/1.1 with the connection timeouts, wrapped in TLS when ``tls`` is set.
    func serverBuilder() throws -> HTTPServerBuilder {
        let timeouts = connectionTimeouts
        let http1 = HTTPServerBuilder { responder in
            TimedHTTP1Channel(responder: responder, timeouts: timeouts)
        }
        guard let tls else { return http1 }
        return try .tls(http1, tlsConfiguration: tls.serverConfiguration)
    }
}
