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
        /// The merchant's API key (`X-API-Key`).
        case apiKey
    }

    /// The merchant every query must be scoped to.
    public var merchantID: String
    /// The user, for access tokens.
    public var userID: String?
    /// The credential's kind.
    public var kind: Kind

    /// Creates a principal.
    public init(merchantID: String, userID: String?, kind: Kind) {
        self.merchantID = merchantID
        self.userID = userID
        self.kind = kind
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

    /// Request bodies are read with the gateway's JSON conventions, by a decoder whose
    /// errors name the field at fault (``RequestDecoding``).
    public var requestDecoder: JSONDecoder { RequestDecoding.decoder }

    /// Returned values are written with the one encoder of the gateway's JSON conventions.
    public var responseEncoder: JSONEncoder { GatewayJSON.encoder }

    /// Creates the context for a request.
    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
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
