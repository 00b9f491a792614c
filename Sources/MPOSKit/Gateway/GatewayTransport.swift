import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP request to the gateway, relative to its base URL.
public struct GatewayHTTPRequest: Sendable, Hashable {
    /// `GET`, `POST`, `PUT`.
    public var method: String
    /// The path, such as `/v1/payments/card`.
    public var path: String
    /// Header fields (authorization, idempotency key, content type).
    public var headers: [String: String]
    /// The JSON body, if any.
    public var body: Data?

    /// Creates a request.
    public init(method: String, path: String, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }
}

/// The gateway's answer: status and body.
public struct GatewayHTTPResponse: Sendable, Hashable {
    /// The HTTP status.
    public var status: Int
    /// The body bytes.
    public var body: Data

    /// Creates a response.
    public init(status: Int, body: Data) {
        self.status = status
        self.body = body
    }
}

/// Why a request got no HTTP answer. A request may have reached the gateway even so: the
/// payment engine then asks for the attempt by its idempotency key.
public struct GatewayTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What happened, without request data.
    public var reason: String
    /// Whether sending the request again cannot help: an untrusted certificate, a malformed
    /// URL, a cancelled task. The terminal retries safe requests (login, the merchant,
    /// lookups, reports) after any other failure, but not after one of these.
    public var isPermanent: Bool

    /// Creates the error.
    ///
    /// - Parameters:
    ///   - reason: what happened, without request data.
    ///   - isPermanent: true when the same request would fail the same way again.
    public init(reason: String, isPermanent: Bool = false) {
        self.reason = reason
        self.isPermanent = isPermanent
    }

    /// `GatewayTransportError: <reason>`.
    public var description: String { "GatewayTransportError: \(reason)" }
}

/// The seam between the SDK and HTTP: one request, one answer. ``URLSessionGatewayTransport``
/// is the real one; tests wrap it to drop answers or fail requests.
public protocol GatewayTransport: Sendable {
    /// Sends `request` to the gateway at `baseURL`.
    ///
    /// - Throws: ``GatewayTransportError`` when no HTTP answer arrived (the request may or may
    ///   not have been processed).
    func send(_ request: GatewayHTTPRequest, to baseURL: URL) async throws(GatewayTransportError)
        -> GatewayHTTPResponse
}

/// ``GatewayTransport`` over Foundation's `URLSession`.
public struct URLSessionGatewayTransport: GatewayTransport {
    private let session: URLSession
    private let timeout: TimeInterval

    /// A transport over an ephemeral session.
    ///
    /// - Parameter timeout: how long one request may take.
    public init(timeout: TimeInterval = 30) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        self.session = URLSession(configuration: configuration)
        self.timeout = timeout
    }

    /// Sends one request.
    public func send(_ request: GatewayHTTPRequest, to baseURL: URL) async throws(GatewayTransportError)
        -> GatewayHTTPResponse
    {
        guard let url = URL(string: baseURL.absoluteString + request.path) else {
            throw GatewayTransportError(reason: "malformed URL", isPermanent: true)
        }
        var urlRequest = URLRequest(url: url, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        do {
            let (data, response) = try await session.data(for: urlRequest)
            guard let http = response as? HTTPURLResponse else {
                throw GatewayTransportError(reason: "not an HTTP response")
            }
            return GatewayHTTPResponse(status: http.statusCode, body: data)
        } catch let error as GatewayTransportError {
            throw error
        } catch {
            let error = error as NSError
            throw GatewayTransportError(reason: "\(type(of: error)) \(error.code)", isPermanent: Self.isPermanent(error))
        }
    }

    /// Whether `error` is one the same request would meet again. On Linux, URLSession runs
    /// over libcurl and reports an untrusted certificate as an unknown error with curl's
    /// message, which is the only trace of the cause.
    private static func isPermanent(_ error: NSError) -> Bool {
        guard error.domain == NSURLErrorDomain else { return false }
        if permanentCodes.contains(error.code) { return true }
        return error.code == URLError.Code.unknown.rawValue
            && error.localizedDescription.hasPrefix("SSL certificate problem")
    }

    /// The `URLError` codes that the same request would meet again: a bad or unsupported
    /// URL, a cancelled task, and the TLS trust failures.
    private static let permanentCodes: Set<Int> = Set(
        [
            URLError.Code.badURL, .unsupportedURL, .cancelled, .secureConnectionFailed,
            .serverCertificateHasBadDate, .serverCertificateUntrusted, .serverCertificateHasUnknownRoot,
            .serverCertificateNotYetValid, .clientCertificateRejected, .clientCertificateRequired,
        ].map(\.rawValue))
}
