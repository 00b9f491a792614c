import Foundation
import GatewayAPI
import MPOSKit
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// ``GatewayTransport`` over SwiftNIO: HTTP/1.1 on keep-alive connections to the gateway,
/// for apps on Linux, where `URLSession` runs over libcurl and costs a thread hand-off and a
/// request setup per call.
///
/// Each request in flight has a connection of its own; a connection whose answer completed
/// and that the server keeps open goes back to a small idle pool and carries the next
/// request. A pooled connection the server closed in the meantime is replaced, and a request
/// that found it closed before any answer arrived is sent once more on a new connection when
/// repeating it is harmless (a `GET`, or a request with an idempotency key).
///
/// Plain `http` only: an `https` gateway is served by `tlsFallback` (`URLSession` by
/// default), since this package carries no TLS library.
///
/// ```swift
/// let transport = NIOGatewayTransport()
/// let terminal = try PaymentTerminal(
///     environment: gatewayURL, credentials: credentials, journalPath: journal, transport: transport)
/// …
/// await transport.shutdown()
/// ```
///
/// Every failure reaches the caller as a ``GatewayTransportError``.
public final class NIOGatewayTransport: GatewayTransport {
    /// Where a connection goes.
    struct Origin: Hashable, Sendable {
        var host: String
        var port: Int
    }

    private let group: any EventLoopGroup
    private let timeout: Duration
    private let connectTimeout: Duration
    private let clock: (any Clock<Duration>)?
    private let tlsFallback: (any GatewayTransport)?
    private let pool: Mutex<IdleConnectionPool<Origin, any Channel>>
    /// The base URL last sent to, parsed.
    private let lastTarget = Mutex<(url: URL, target: Target)?>(nil)

    /// Creates a transport.
    ///
    /// - Parameters:
    ///   - timeout: how long one request may wait for its complete answer once sent.
    ///   - connectTimeout: how long opening a connection may take.
    ///   - idleConnections: how many idle keep-alive connections are kept per gateway.
    ///   - clock: the clock of `timeout`; nil uses the event loop's own timer (cheapest).
    ///     Tests pass a manual clock.
    ///   - group: the event loops the connections run on.
    ///   - tlsFallback: the transport for `https` gateways; nil refuses them with a
    ///     ``GatewayTransportError``.
    public init(
        timeout: Duration = .seconds(30), connectTimeout: Duration = .seconds(10), idleConnections: Int = 4,
        clock: (any Clock<Duration>)? = nil, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        tlsFallback: (any GatewayTransport)? = URLSessionGatewayTransport()
    ) {
        self.group = group
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.clock = clock
        self.tlsFallback = tlsFallback
        pool = Mutex(IdleConnectionPool(limitPerOrigin: idleConnections))
    }

    deinit {
        for channel in pool.withLock({ $0.shutDown() }) { channel.close(promise: nil) }
    }

    /// How many idle connections wait for a request (for tests and diagnostics).
    public var idleConnectionCount: Int { pool.withLock { $0.count } }

    /// Closes the idle connections; connections still carrying a request close when their
    /// answer is in. Later requests open connections that are not kept.
    public func shutdown() async {
        let idle = pool.withLock { $0.shutDown() }
        for channel in idle { try? await channel.close() }
    }

    /// Sends one request and waits for its complete answer.
    public func send(_ request: GatewayHTTPRequest, to baseURL: URL) async throws(GatewayTransportError)
        -> GatewayHTTPResponse
    {
        let target = try target(of: baseURL)
        switch target.scheme {
        case "http":
            break
        case "https":
            guard let tlsFallback else { throw GatewayTransportError(reason: "https needs a TLS transport") }
            return try await tlsFallback.send(request, to: baseURL)
        default:
            throw GatewayTransportError(reason: "unsupported URL scheme \(target.scheme)")
        }
        guard let method = Self.method(request.method) else {
            throw GatewayTransportError(reason: "malformed method")
        }
        let origin = target.origin
        var head = HTTPRequestHead(version: .http1_1, method: method, uri: target.path + request.path)
        for (name, value) in request.headers { head.headers.replaceOrAdd(name: name, value: value) }
        head.headers.replaceOrAdd(name: "Host", value: target.hostHeader)
        if let body = request.body {
            head.headers.replaceOrAdd(name: "Content-Length", value: String(body.count))
        } else if method != .GET && method != .HEAD {
            head.headers.replaceOrAdd(name: "Content-Length", value: "0")
        }
        let repeatable = method == .GET || method == .HEAD || request.headers.keys.contains {
            $0.lowercased() == Self.idempotencyKeyHeader
        }

        var (channel, reused) = try await connection(to: origin)
        while true {
            let body = request.body.map { channel.allocator.buffer(bytes: $0) }
            do {
                let answer = try await exchange(head, body: body, on: channel)
                let kept = answer.keepAlive && channel.isActive && pool.withLock { $0.checkIn(channel, for: origin) }
                if !kept { channel.close(promise: nil) }
                return GatewayHTTPResponse(status: answer.status, body: Data(answer.body.readableBytesView))
            } catch .closedBeforeAnswer where reused && repeatable {
                // A kept connection the server had closed: the request never got an answer
                // there, and sending it again is harmless.
                channel.close(promise: nil)
                channel = try await Self.connect(to: origin, group: group, timeout: connectTimeout)
                reused = false
            } catch {
                channel.close(promise: nil)
                throw Self.transportError(error)
            }
        }
    }

    // MARK: - Internals

    /// What a request needs from the gateway's base URL.
    struct Target: Sendable {
        /// The scheme, lowercased.
        var scheme: String
        var origin: Origin
        /// The `Host` header: the host, and the port unless it is 80.
        var hostHeader: String
        /// The base URL's path without trailing slashes; request paths are appended to it.
        var path: String
    }

    private static let idempotencyKeyHeader = GatewayHeaders.idempotencyKey.lowercased()

    /// The target of `baseURL`, parsed once: a terminal sends every request to the same base
    /// URL, and Foundation's URL parsing cost more than the rest of a request's setup.
    private func target(of baseURL: URL) throws(GatewayTransportError) -> Target {
        if let last = lastTarget.withLock({ $0 }), last.url == baseURL { return last.target }
        guard let components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), let host = components.host, !host.isEmpty
        else { throw GatewayTransportError(reason: "malformed URL") }
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        let port = components.port ?? 80
        let target = Target(
            scheme: scheme, origin: Origin(host: host, port: port), hostHeader: port == 80 ? host : "\(host):\(port)",
            path: path)
        lastTarget.withLock { $0 = (baseURL, target) }
        return target
    }

    /// An idle connection to `origin`, or a new one.
    private func connection(to origin: Origin) async throws(GatewayTransportError) -> (any Channel, reused: Bool) {
        let (idle, stale) = pool.withLock { $0.checkOut(origin) { $0.isActive } }
        for channel in stale { channel.close(promise: nil) }
        if let idle { return (idle, true) }
        return (try await Self.connect(to: origin, group: group, timeout: connectTimeout), false)
    }

    /// Writes one request on `channel` and waits for its answer, its deadline or the caller's
    /// cancellation, whichever comes first.
    private func exchange(_ head: HTTPRequestHead, body: ByteBuffer?, on channel: any Channel)
        async throws(GatewayExchangeFailure) -> GatewayWireAnswer
    {
        let promise = channel.eventLoop.makePromise(of: GatewayWireAnswer.self)
        let exchange = GatewayExchange(head: head, body: body, answer: promise)
        let id = exchange.id
        var timer: Task<Void, Never>?
        var scheduled: Scheduled<Void>?
        if let clock {
            let timeout = self.timeout
            timer = Task {
                do { try await clock.sleep(for: timeout) } catch { return }
                channel.triggerUserOutboundEvent(GatewayExchangeEnd.timedOut(id), promise: nil)
            }
        } else {
            scheduled = channel.eventLoop.scheduleTask(in: .nanoseconds(Self.nanoseconds(timeout))) {
                channel.triggerUserOutboundEvent(GatewayExchangeEnd.timedOut(id), promise: nil)
            }
        }
        defer {
            timer?.cancel()
            scheduled?.cancel()
        }
        channel.writeAndFlush(exchange, promise: nil)
        do {
            return try await withTaskCancellationHandler {
                try await promise.futureResult.get()
            } onCancel: {
                channel.triggerUserOutboundEvent(GatewayExchangeEnd.cancelled(id), promise: nil)
            }
        } catch let failure as GatewayExchangeFailure {
            throw failure
        } catch {
            throw .io("\(type(of: error))")
        }
    }

    private static func connect(to origin: Origin, group: any EventLoopGroup, timeout: Duration)
        async throws(GatewayTransportError) -> any Channel
    {
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(.nanoseconds(max(1, nanoseconds(timeout))))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(GatewayHTTPHandler())
                }
            }
        do {
            return try await bootstrap.connect(host: origin.host, port: origin.port).get()
        } catch {
            throw connectError(error)
        }
    }

    /// The typed error of a failed connect: refused, timed out, or another socket error.
    static func connectError(_ error: any Error) -> GatewayTransportError {
        if let channelError = error as? ChannelError, case .connectTimeout = channelError {
            return GatewayTransportError(reason: "connect timed out")
        }
        var underlying: [any Error] = [error]
        if let connectionError = error as? NIOConnectionError {
            underlying = connectionError.connectionErrors.map(\.error)
            if underlying.isEmpty { return GatewayTransportError(reason: "the gateway's host name did not resolve") }
        }
        if underlying.contains(where: { ($0 as? IOError)?.errnoCode == ECONNREFUSED }) {
            return GatewayTransportError(reason: "connection refused")
        }
        return GatewayTransportError(reason: "cannot connect (\(type(of: underlying[0])))")
    }

    static func transportError(_ failure: GatewayExchangeFailure) -> GatewayTransportError {
        switch failure {
        case .closedBeforeAnswer: GatewayTransportError(reason: "connection closed before an answer")
        case .closedMidAnswer: GatewayTransportError(reason: "connection closed in the middle of the answer")
        case .malformed(let detail): GatewayTransportError(reason: "malformed response (\(detail))")
        case .timedOut: GatewayTransportError(reason: "timed out")
        case .cancelled: GatewayTransportError(reason: "cancelled")
        case .io(let detail): GatewayTransportError(reason: "I/O error (\(detail))")
        case .busy: GatewayTransportError(reason: "connection busy")
        }
    }

    /// The method, if it is a token (RFC 9110 §5.6.2): no spaces or control bytes that would
    /// break the request line.
    static func method(_ text: String) -> HTTPMethod? {
        let allowed = Set("!#$%&'*+-.^_`|~".utf8)
        guard !text.isEmpty,
            text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || allowed.contains($0) })
        else { return nil }
        return HTTPMethod(rawValue: text)
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : scaled.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }
}
