import AsyncHTTPClient
import Foundation
import GatewayAPI
import NIOCore
import NIOSSL

/// Sends one webhook request; the seam between the dispatcher and the network.
public protocol WebhookTransport: Sendable {
    /// POSTs `body` to `url` with `headers`, connecting to `address` (the one the destination
    /// check passed) while the URL's host goes in the `Host` header and TLS's server name; never
    /// follows a redirect.
    ///
    /// - Returns: the HTTP status of the answer.
    /// - Throws: ``WebhookTransportError`` with the failure's class when no answer came.
    func post(url: URL, connectingTo address: WebhookAddress, body: [UInt8], headers: [String: String])
        async throws(WebhookTransportError) -> Int
}

/// Why a webhook request got no answer, as a class only: the socket's error text is dropped
/// here, so that the delivery log cannot tell a closed port from an unroutable host.
public struct WebhookTransportError: Error, Sendable, Hashable {
    /// `timeout`, `unreachable` or `tls`.
    public let failure: WebhookDeliveryFailure

    /// An error of class `failure`.
    public init(_ failure: WebhookDeliveryFailure) { self.failure = failure }
}

/// The transport over AsyncHTTPClient: the gateway's default.
///
/// Each request has a client of its own, which connects to the checked address
/// (AsyncHTTPClient's `dnsOverride`, keeping the host name for `Host`, SNI and the
/// certificate check), follows no redirect, and is shut down when the request ends, so no
/// pooled connection outlives the check it was made under. Cancelling a delivery (a gateway
/// shutting down) cancels its request.
public struct HTTPClientWebhookTransport: WebhookTransport {
    /// How long a request may take, connection and answer included.
    public var timeout: Duration

    /// Creates a transport.
    public init(timeout: Duration = .seconds(10)) { self.timeout = timeout }

    /// POSTs with a client of its own and reads the answer (at most 1 MiB of it).
    public func post(url: URL, connectingTo address: WebhookAddress, body: [UInt8], headers: [String: String])
        async throws(WebhookTransportError) -> Int
    {
        let limit = TimeAmount.nanoseconds(Int64(timeout.timeInterval * 1e9))
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: .init(connect: limit, read: limit))
        // A failed connection fails the request at once, rather than being retried until the deadline.
        configuration.connectionPool.retryConnectionEstablishment = false
        if let host = url.host(percentEncoded: false) {
            configuration.dnsOverride = [Self.unbracketed(host): address.description]
        }
        let client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        let outcome: Result<Int, WebhookTransportError>
        do {
            var request = HTTPClientRequest(url: url.absoluteString)
            request.method = .POST
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            request.body = .bytes(ByteBuffer(bytes: body))
            let response = try await client.execute(request, timeout: limit)
            _ = try await response.body.collect(upTo: 1 << 20)
            outcome = .success(Int(response.status.code))
        } catch {
            outcome = .failure(WebhookTransportError(Self.failure(of: error)))
        }
        // The delivery's outcome is decided; a client that fails to shut down has nothing to send.
        try? await client.shutdown()
        return try outcome.get()
    }

    /// The class of a request's error: timeouts, TLS failures, and everything else
    /// (refused, reset, unroutable, unresolvable, a broken answer) as `unreachable`.
    static func failure(of error: any Error) -> WebhookDeliveryFailure {
        if let error = error as? HTTPClientError {
            switch error {
            case .readTimeout, .writeTimeout, .deadlineExceeded, .connectTimeout, .tlsHandshakeTimeout:
                return .timeout
            default:
                return .unreachable
            }
        }
        if error is NIOSSLError || error is BoringSSLError || error is NIOSSLExtraError { return .tls }
        return .unreachable
    }

    /// `::1` for `[::1]`: AsyncHTTPClient looks the override up by the host without brackets.
    private static func unbracketed(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }
}
