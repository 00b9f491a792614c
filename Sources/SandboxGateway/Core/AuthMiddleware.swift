import Foundation
import GatewayAPI
import Hummingbird

/// Resolves the caller's credentials into ``GatewayRequestContext/principal``: a Bearer
/// access token (extending its sliding expiry) or client token, or an `X-API-Key`. Routes
/// decide what they require with ``GatewayRequestContext/requireMerchant(allowingAPIKey:)``
/// and ``GatewayRequestContext/requireUser()``; a request with no or bad credentials still
/// reaches public routes such as login.
struct GatewayAuthMiddleware: RouterMiddleware {
    typealias Context = GatewayRequestContext

    let environment: GatewayEnvironment

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.bodyLimit = environment.configuration.bodyLimit
        let proxies = environment.configuration.trustedProxies
        if let peer = context.peerAddress, proxies.contains(peer) {
            // Only a trusted proxy's header is read: every other request skips it.
            context.clientAddress = Self.clientAddress(
                peer: peer, forwardedFor: request.headers[values: .xForwardedFor], trustedProxies: proxies)
        }
        context.securityLog = environment.accounts.securityLog
        if let value = request.headers[.authorization] {
            if let token = ASCIIText.credentials(value, scheme: GatewayHeaders.bearerPrefix) {
                switch try await environment.accounts.resolveBearer(token) {
                case .success(let principal): context.principal = principal
                case .failure(let error): context.authenticationFailure = error
                }
            } else {
                context.authenticationFailure = .unauthorized("Use 'Authorization: Bearer <token>'.")
            }
        } else if let name = HTTPFieldName(GatewayHeaders.apiKey), let key = request.headers[name] {
            if let principal = try await environment.accounts.resolveAPIKey(key) {
                context.principal = principal
            } else {
                context.authenticationFailure = .unauthorized("Unknown API key.")
            }
        }
        return try await next(request, context)
    }
}

extension GatewayAuthMiddleware {
    /// The client's address: `peer`, unless `peer` is a trusted proxy; then the last address
    /// in the `X-Forwarded-For` values that is not a trusted proxy (each proxy appends the
    /// address it saw, so the ones before it may be forged by the client).
    static func clientAddress(peer: String?, forwardedFor: [String], trustedProxies: Set<String>) -> String {
        guard let peer else { return "unknown" }
        guard trustedProxies.contains(peer) else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return hops.last { !trustedProxies.contains($0) } ?? peer
    }
}

extension HTTPFields.Element.Name {
    /// `X-Forwarded-For`.
    static let xForwardedFor = Self("X-Forwarded-For")!
}
