import NIOCore
import NIOHTTP1

/// One request for a connection and the promise of its answer.
struct GatewayExchange: Sendable {
    var head: HTTPRequestHead
    var body: ByteBuffer?
    var answer: EventLoopPromise<GatewayWireAnswer>

    /// Names this exchange in a timeout or cancel event, so that a late event never ends the
    /// next exchange on a reused connection.
    var id: ObjectIdentifier { ObjectIdentifier(answer.futureResult) }
}

/// A complete HTTP answer as it came off the wire.
struct GatewayWireAnswer: Sendable {
    var status: Int
    var body: ByteBuffer
    /// Whether the server lets the connection carry another request.
    var keepAlive: Bool
}

/// How an exchange ended without a complete answer.
enum GatewayExchangeFailure: Error, Sendable, Equatable {
    /// The connection closed before any byte of the answer arrived.
    case closedBeforeAnswer
    /// The connection closed after part of the answer arrived.
    case closedMidAnswer
    /// The bytes were not an HTTP/1.1 answer.
    case malformed(String)
    /// The deadline passed first.
    case timedOut
    /// The calling task was cancelled.
    case cancelled
    /// A socket error.
    case io(String)
    /// A request came while another was in flight on the connection (never sent so).
    case busy
}

/// Ends the exchange it names: sent through the pipeline by the transport's timer or its
/// cancellation handler.
enum GatewayExchangeEnd: Sendable {
    case timedOut(ObjectIdentifier)
    case cancelled(ObjectIdentifier)
}

/// The last handler of a gateway connection: writes one request at a time and collects its
/// answer (head, body parts, end) into one buffer. NIOHTTP1's decoder before it handles
/// Content-Length and chunked bodies. Runs only on the channel's event loop.
final class GatewayHTTPHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundIn = GatewayExchange
    typealias OutboundOut = HTTPClientRequestPart

    private var pending: GatewayExchange?
    private var head: HTTPResponseHead?
    private var body: ByteBuffer?

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let exchange = unwrapOutboundIn(data)
        guard pending == nil else {
            exchange.answer.fail(GatewayExchangeFailure.busy)
            promise?.fail(GatewayExchangeFailure.busy)
            return
        }
        guard context.channel.isActive else {
            // Closed while idle (the peer's close not yet seen by the pool): nothing was sent.
            exchange.answer.fail(GatewayExchangeFailure.closedBeforeAnswer)
            promise?.fail(GatewayExchangeFailure.closedBeforeAnswer)
            return
        }
        pending = exchange
        head = nil
        body = nil
        context.write(wrapOutboundOut(.head(exchange.head)), promise: nil)
        if let bytes = exchange.body, bytes.readableBytes > 0 {
            context.write(wrapOutboundOut(.body(.byteBuffer(bytes))), promise: nil)
        }
        context.write(wrapOutboundOut(.end(nil)), promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let responseHead):
            // An interim 1xx answer is followed by the real one.
            guard responseHead.status.code >= 200 else { return }
            head = responseHead
            body = context.channel.allocator.buffer(capacity: 0)
        case .body(var part):
            body?.writeBuffer(&part)
        case .end:
            guard let exchange = pending, let responseHead = head else {
                // An answer nobody asked for: the connection cannot be trusted any more.
                context.close(promise: nil)
                return
            }
            pending = nil
            head = nil
            let bytes = body ?? context.channel.allocator.buffer(capacity: 0)
            body = nil
            exchange.answer.succeed(GatewayWireAnswer(
                status: Int(responseHead.status.code), body: bytes, keepAlive: responseHead.isKeepAlive))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(head == nil ? .closedBeforeAnswer : .closedMidAnswer)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let parserError = error as? HTTPParserError {
            // The decoder reports a close in the middle of a message as a parser error.
            if case .invalidEOFState = parserError {
                fail(.closedMidAnswer)
            } else {
                fail(.malformed("\(parserError)"))
            }
        } else {
            fail(.io("\(type(of: error))"))
        }
        context.close(promise: nil)
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard let end = event as? GatewayExchangeEnd else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        promise?.succeed(())
        switch end {
        case .timedOut(let id) where id == pending?.id:
            fail(.timedOut)
        case .cancelled(let id) where id == pending?.id:
            fail(.cancelled)
        default:
            return  // that exchange already ended
        }
        // Half an exchange leaves the connection in an unknown state.
        context.close(promise: nil)
    }

    private func fail(_ failure: GatewayExchangeFailure) {
        guard let exchange = pending else { return }
        pending = nil
        head = nil
        body = nil
        exchange.answer.fail(failure)
    }
}
