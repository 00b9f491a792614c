import Hummingbird

/// Adds `Strict-Transport-Security: max-age=31536000` to every response, API and dashboard
/// alike, so that a browser that once reached the gateway over TLS never again tries it in
/// plain HTTP. Installed only when the gateway serves TLS: over plain HTTP the header means
/// nothing (RFC 6797 §7.2) and would only mislead.
struct StrictTransportSecurityMiddleware: RouterMiddleware {
    typealias Context = GatewayRequestContext

    /// One year, the value browsers' preload lists ask for.
    static let value = "max-age=31536000"

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.strictTransportSecurity] = Self.value
        return response
    }
}
