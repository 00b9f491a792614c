import Hummingbird
import HummingbirdCore
import NIOCore

/// The request parts the HTTP/1 codec hands on (`HTTPRequestPart` of NIOHTTPTypes, named
/// through Hummingbird's own handler so that the gateway needs no dependency for it).
typealias GatewayRequestPart = HTTPConnectionStateHandler.InboundIn

/// Closes a connection whose request head or body does not arrive in time
/// (``RequestReadDeadlines``). It sits after the HTTP/1 codec and sees the request's parts;
/// ``RequestBytesAnnouncer``, before the codec, tells it when the bytes of a new request
/// start to arrive, which the codec does not until the head is complete.
final class RequestTimeoutHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = GatewayRequestPart
    typealias InboundOut = GatewayRequestPart

    private var deadlines: RequestReadDeadlines
    private var started = false
    private var scheduled: Scheduled<Void>?

    init(_ timeouts: GatewayConnectionTimeouts) {
        deadlines = RequestReadDeadlines(
            headTimeout: TimeAmount(timeouts.requestHeader), bodyTimeout: TimeAmount(timeouts.requestBody))
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        run(.cancel, context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        run(.cancel, context)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: run(deadlines.headArrived(at: .now()), context)
        case .body: break
        case .end: run(deadlines.requestEnded(), context)
        }
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is RequestBytesAnnouncer.BytesArrived else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        run(deadlines.bytesArrived(at: .now()), context)
    }

    private func start(_ context: ChannelHandlerContext) {
        guard !started else { return }
        started = true
        run(deadlines.opened(at: .now()), context)
    }

    private func run(_ action: RequestReadDeadlines.Action, _ context: ChannelHandlerContext) {
        switch action {
        case .none:
            return
        case .cancel:
            scheduled?.cancel()
            scheduled = nil
        case .closeAt(let deadline):
            scheduled?.cancel()
            scheduled = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
                scheduled = nil
                if deadlines.isOverdue(at: .now()) { context.close(promise: nil) }
            }
        }
    }
}

/// Tells ``RequestTimeoutHandler`` that bytes arrived, before they reach the HTTP/1 codec.
final class RequestBytesAnnouncer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// The event it sends up the pipeline ahead of each read.
    struct BytesArrived {}

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireUserInboundEventTriggered(BytesArrived())
        context.fireChannelRead(data)
    }
}
