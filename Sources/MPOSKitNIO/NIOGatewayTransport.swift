import AsyncHTTPClient
import Foundation
import GatewayAPI
import MPOSKit
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// ``GatewayTransport`` over AsyncHTTPClient: HTTP/1.1 and HTTPS on keep-alive connections to
/// the gateway, for apps on Linux, where `URLSession` runs over libcurl and costs a thread
/// hand-off and a request setup per call.
///
/// A connection whose answer completed and that the server keeps open goes back to the
/// client's pool and carries the next request. A request that found a kept connection closed
/// before any answer arrived is sent again when repeating it is harmless (a `GET`, or a
/// request with an idempotency key); a request on a fresh connection never is, since the
/// gateway may have acted on it.
///
/// `https` gateways are verified against the system's trust roots; a sandbox gateway with a
/// self-signed certificate is trusted by adding that certificate to `tlsConfiguration`:
///
/// ```swift
/// var tls = TLSConfiguration.makeClientConfiguration()
/// tls.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMFile("sandbox.pem"))]
/// let transport = NIOGatewayTransport(tlsConfiguration: tls)
/// let terminal = try PaymentTerminal(
///     environment: gatewayURL, credentials: credentials, journalPath: journal, transport: transport)
/// …
/// await transport.shutdown()
/// ```
///
/// Every failure reaches the caller as a ``GatewayTransportError``. The transport shuts its
/// client down when it is released; ``shutdown()`` does it at a known moment.
public final class NIOGatewayTransport: GatewayTransport {
    private let client: HTTPClient
    private let timeout: Duration
    private let clock: (any Clock<Duration>)?
    private let closesConnections: Bool
    /// How many connections to one gateway the transport keeps and uses at once.
    public let connectionLimit: Int
    /// How many connections the client opened: a request during which none opened rode a
    /// kept connection, the only case in which a close before any answer is resent.
    private let opened: ConnectionCounter
    /// The base URL last sent to, parsed.
    private let lastTarget = Mutex<(url: URL, target: Target)?>(nil)

    /// Creates a transport.
    ///
    /// - Parameters:
    ///   - timeout: how long one request may take, from sending it to its complete answer.
    ///   - connectTimeout: how long opening a connection (and its TLS handshake) may take.
    ///   - idleConnections: how many keep-alive connections are kept per gateway, and so how
    ///     many requests run at once (more wait for one); 0 closes each connection after its
    ///     answer. 32 by default, the offline forward's window: a terminal's own requests come
    ///     one at a time and share one connection; only a forward of stored sales opens more.
    ///   - clock: the clock of `timeout`; nil uses the event loop's own timer (cheapest).
    ///     Tests pass a manual clock.
    ///   - group: the event loops the connections run on.
    ///   - tlsConfiguration: how `https` gateways are verified: the system's trust roots by
    ///     default; add `additionalTrustRoots` (or set `trustRoots`) to trust a private or
    ///     self-signed certificate.
    public init(
        timeout: Duration = .seconds(30), connectTimeout: Duration = .seconds(10), idleConnections: Int = 32,
        clock: (any Clock<Duration>)? = nil, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        tlsConfiguration: TLSConfiguration = .makeClientConfiguration()
    ) {
        let opened = ConnectionCounter()
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tlsConfiguration, redirectConfiguration: .disallow,
            timeout: .init(connect: .nanoseconds(max(1, Self.nanoseconds(connectTimeout)))),
            connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, idleConnections)),
            decompression: .disabled,
            http1_1ConnectionDebugInitializer: { channel in
                opened.increment()
                return channel.eventLoop.makeSucceededVoidFuture()
            })
        configuration.httpVersion = .http1Only
        // A refused or failed connect is the caller's answer at once ("request never left"),
        // not a wait through the client's reconnect backoff until the deadline.
        configuration.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroup: group, configuration: configuration)
        self.timeout = timeout
        self.clock = clock
        closesConnections = idleConnections <= 0
        connectionLimit = max(1, idleConnections)
        self.opened = opened
    }

    deinit {
        // The client must be shut down before it is released; this does not wait for it.
        client.shutdown { _ in }
    }

    /// How many connections the transport opened so far, to every gateway (for tests and
    /// diagnostics: on keep-alive, a terminal's requests share one).
    public var openedConnectionCount: Int { opened.value }

    /// Closes every connection and shuts the HTTP client down; requests still in flight fail.
    /// Later requests fail with a ``GatewayTransportError``.
    public func shutdown() async {
        try? await client.shutdown()
    }

    /// Sends one request and waits for its complete answer.
    public func send(_ request: GatewayHTTPRequest, to baseURL: URL) async throws(GatewayTransportError)
        -> GatewayHTTPResponse
    {
        let target = try target(of: baseURL)
        guard let method = Self.method(request.method) else {
            throw GatewayTransportError(reason: "malformed method", isPermanent: true)
        }
        var outgoing = HTTPClientRequest(url: target.base + request.path)
        outgoing.method = method
        for (name, value) in request.headers { outgoing.headers.replaceOrAdd(name: name, value: value) }
        if closesConnections { outgoing.headers.replaceOrAdd(name: "Connection", value: "close") }
        // The client sets Content-Length from the body (0 for a POST without one).
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        let repeatable = method == .GET || method == .HEAD || request.headers.keys.contains {
            $0.lowercased() == Self.idempotencyKeyHeader
        }
        while true {
            let openedBefore = opened.value
            do {
                let answer = try await exchange(outgoing)
                return GatewayHTTPResponse(status: answer.status, body: answer.body)
            } catch .closedBeforeAnswer where repeatable && opened.value == openedBefore {
                // A kept connection the server had closed: the request never got an answer
                // there, and sending it again is harmless.
                continue
            } catch {
                throw error.transportError
            }
        }
    }

    // MARK: - Internals

    /// What a request needs from the gateway's base URL: `scheme://host:port` and the base
    /// URL's path without trailing slashes; request paths are appended to it.
    struct Target: Sendable {
        var base: String
    }

    /// A complete answer as it came off the wire.
    private struct Answer: Sendable {
        var status: Int
        var body: Data
    }

    private static let idempotencyKeyHeader = GatewayHeaders.idempotencyKey.lowercased()

    /// The target of `baseURL`, parsed once: a terminal sends every request to the same base
    /// URL.
    private func target(of baseURL: URL) throws(GatewayTransportError) -> Target {
        if let last = lastTarget.withLock({ $0 }), last.url == baseURL { return last.target }
        guard let components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), let host = components.host, !host.isEmpty
        else { throw GatewayTransportError(reason: "malformed URL", isPermanent: true) }
        guard scheme == "http" || scheme == "https" else {
            throw GatewayTransportError(reason: "unsupported URL scheme \(scheme)", isPermanent: true)
        }
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        let literal = host.contains(":") ? "[\(host)]" : host
        let target = Target(base: "\(scheme)://\(literal):\(port)\(path)")
        lastTarget.withLock { $0 = (baseURL, target) }
        return target
    }

    /// Sends `request` and reads its whole answer before the deadline, the injected clock's
    /// timer or the caller's cancellation, whichever comes first.
    private func exchange(_ request: HTTPClientRequest) async throws(GatewayExchangeFailure) -> Answer {
        guard let clock else {
            return try await Self.exchange(request, on: client, deadline: .now() + .nanoseconds(Self.nanoseconds(timeout)))
        }
        let client = self.client, timeout = self.timeout
        do {
            return try await withThrowingTaskGroup(of: Answer.self) { group in
                group.addTask { try await Self.exchange(request, on: client, deadline: .distantFuture) }
                group.addTask {
                    try await clock.sleep(for: timeout)
                    throw GatewayExchangeFailure.timedOut
                }
                defer { group.cancelAll() }
                guard let first = try await group.next() else { throw GatewayExchangeFailure.cancelled }
                return first
            }
        } catch let failure as GatewayExchangeFailure {
            throw failure
        } catch {
            throw .cancelled
        }
    }

    private static func exchange(_ request: HTTPClientRequest, on client: HTTPClient, deadline: NIODeadline)
        async throws(GatewayExchangeFailure) -> Answer
    {
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, deadline: deadline)
        } catch {
            throw GatewayExchangeFailure(beforeAnswer: error)
        }
        var body = Data()
        if let length = response.headers.first(name: "content-length").flatMap(Int.init), length > 0 {
            body.reserveCapacity(length)
        }
        do {
            for try await part in response.body { body.append(contentsOf: part.readableBytesView) }
        } catch {
            throw GatewayExchangeFailure(midAnswer: error)
        }
        return Answer(status: Int(response.status.code), body: body)
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

/// Counts the connections a transport's client opens; its client calls ``increment()`` from
/// an event loop for each new connection.
final class ConnectionCounter: Sendable {
    private let count = Mutex(0)

    /// The connections opened so far.
    var value: Int { count.withLock { $0 } }

    /// Counts one more connection.
    func increment() { count.withLock { $0 += 1 } }
}
