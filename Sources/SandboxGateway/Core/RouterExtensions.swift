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
