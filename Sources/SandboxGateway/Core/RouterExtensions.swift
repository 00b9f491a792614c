import GatewayAPI
import Hummingbird

extension Router where Context == GatewayRequestContext {
    /// Registers `handler` for a route of ``GatewayRoutes``, so method and path come from
    /// the contract.
    @discardableResult
    public func on(
        _ route: GatewayRoute,
        use handler: @escaping @Sendable (Request, GatewayRequestContext) async throws -> Response
    ) -> Self {
        on(RouterPath(route.path), method: HTTPRequest.Method(rawValue: route.method) ?? .get, use: handler)
    }
}

/// Answers 501/5010 for a declared route that this build does not implement yet.
@Sendable func notImplemented(_ request: Request, _ context: GatewayRequestContext) async throws -> Response {
    throw GatewayError(code: GatewayErrorCode.notImplemented, "Not implemented yet in this gateway build.")
}
