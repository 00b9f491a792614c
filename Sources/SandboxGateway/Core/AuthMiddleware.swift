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
