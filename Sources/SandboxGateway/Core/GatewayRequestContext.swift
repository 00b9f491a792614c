import Foundation
import GatewayAPI
import Hummingbird
import MPOSCore

/// Who is calling, once the authentication middleware has checked their credentials.
public struct GatewayPrincipal: Sendable, Hashable {
    /// The kind of credential presented.
    public enum Kind: String, Sendable, Hashable {
        /// A user's access token from login (`Authorization: Bearer`).
        case accessToken
        /// A client token minted with the API key (`Authorization: Bearer`).
        case clientToken
        /// A session a device renewed with its device credential (`Authorization: Bearer`).
        case deviceSession
        /// The merchant's API key (`X-API-Key`).
        case apiKey
    }

    /// The merchant every query must be scoped to.
    public var merchantID: String
    /// The user, for access tokens.
    public var userID: String?
    /// The credential's kind.
    public var kind: Kind
    /// The SHA-256 hex of the presented token, for an access token: a password change keeps
    /// this session and ends the user's others.
    public var tokenHash: String?

    /// Creates a principal.
    public init(merchantID: String, userID: String?, kind: Kind, tokenHash: String? = nil) {
        self.merchantID = merchantID
        self.userID = userID
        self.kind = kind
        self.tokenHash = tokenHash
    }

    /// What the credential may do (``GatewayScope/granted(to:)``).
    public var scopes: Set<GatewayScope> {
        switch kind {
        case .accessToken: GatewayScope.granted(to: .userSession)
        case .clientToken: GatewayScope.granted(to: .clientToken)
        case .deviceSession: GatewayScope.granted(to: .deviceSession)
        case .apiKey: GatewayScope.granted(to: .apiKey)
        }
    }
}

/// The request context of every gateway route: Hummingbird's core storage plus the
/// authenticated caller and the body limit.
public struct GatewayRequestContext: RequestContext {
    /// Hummingbird's storage (logger, parameters, endpoint path).
    public var coreContext: CoreRequestContextStorage
    /// The caller, when valid credentials were presented.
    public var principal: GatewayPrincipal?
    /// Why the presented credentials were refused (unknown, expired), if they were.
    public var authenticationFailure: GatewayError?
    /// The largest body ``decodeBody(_:context:as:emptyAs:)`` reads; set from the configuration.
    public var bodyLimit: Int = 64 * 1024
    /// The address of the connection's peer, as the socket reports it.
    public var peerAddress: String?
    /// The client's address: the peer's, or, when the peer is a trusted proxy
    /// (``SandboxGatewayConfiguration/trustedProxies``), the last address it added to
    /// `X-Forwarded-For`. Failed logins are throttled by it.
    public var clientAddress: String = "unknown"
    /// Where refusals of a valid credential are recorded; set by the authentication middleware.
    public var securityLog: SecurityLog?

    /// Request bodies are read with the gateway's JSON conventions, by a decoder whose
    /// errors name the field at fault (``RequestDecoding``).
    public var requestDecoder: JSONDecoder { RequestDecoding.decoder }

    /// Returned values are written with the one encoder of the gateway's JSON conventions.
    public var responseEncoder: JSONEncoder { GatewayJSON.encoder }

    /// Creates the context for a request.
    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.peerAddress = source.channel.remoteAddress?.ipAddress
        self.clientAddress = peerAddress ?? "unknown"
    }

    /// Hummingbird's own upload limit follows the gateway's body limit.
    public var maxUploadSize: Int { bodyLimit }

    /// The caller's merchant id, for an access token or a client token.
    ///
    /// - Parameter allowingAPIKey: also accept the `X-API-Key` credential.
    /// - Throws: 4010/4011 without valid credentials, 4030 for an API key where it is not
    ///   accepted.
    public func requireMerchant(allowingAPIKey: Bool = false) throws(GatewayError) -> String {
        guard let principal else {
            throw authenticationFailure ?? .unauthorized()
        }
        if principal.kind == .apiKey && !allowingAPIKey {
            throw .forbidden("The API key may only mint client tokens and read the outbox; use a token.")
        }
        return principal.merchantID
    }

    /// The caller's merchant and user id, for routes that need a user's access token.
    ///
    /// - Throws: 4010/4011 without valid credentials, 4030 for a client token or API key.
    public func requireUser() throws(GatewayError) -> (merchantID: String, userID: String) {
        guard let principal else {
            throw authenticationFailure ?? .unauthorized()
        }
        guard principal.kind == .accessToken, let userID = principal.userID else {
            throw .forbidden("This route needs a user's access token from login.")
        }
        return (principal.merchantID, userID)
    }

    /// The `Idempotency-Key` header of `request`, validated.
    ///
    /// - Throws: 4002 when it is missing or malformed.
    public func requireIdempotencyKey(_ request: Request) throws(GatewayError) -> IdempotencyKey {
        guard let name = HTTPFieldName(GatewayHeaders.idempotencyKey),
            let text = request.headers[name]
        else {
            throw .invalidHeader("The \(GatewayHeaders.idempotencyKey) header is required on this route.")
        }
        guard let key = IdempotencyKey(rawValue: text) else {
            throw .invalidHeader(
                "\(GatewayHeaders.idempotencyKey) must be 1 to \(IdempotencyKey.maximumLength) characters of A-Z a-z 0-9 - _."
            )
        }
        return key
    }
}

extension GatewayRequestContext {
    /// `value` as a JSON response written by ``responseEncoder``, with `status`.
    public func respond(
        to request: Request, with value: some Encodable, status: HTTPResponse.Status = .ok
    ) throws -> Response {
        var response = try responseEncoder.encode(value, from: request, context: self)
        response.status = status
        return response
    }
}
