import GatewayAPI
import Hummingbird

extension Router where Context == GatewayRequestContext {
    /// Registers `handler` for an endpoint of ``GatewayRoutes``: method and path come from the
    /// contract, and a caller without the credentials the endpoint declares is refused before
    /// the handler runs.
    @discardableResult
    public func on<Input, Output>(
        _ endpoint: GatewayEndpoint<Input, Output>,
        use handler: @escaping @Sendable (Request, GatewayRequestContext) async throws -> Response
    ) -> Self {
        on(endpoint.route, use: handler)
    }

    /// Registers `handler` for `route`, as the endpoint overload does; for routes outside the
    /// contract (tests, ``GatewayConfiguration/additionalRoutes``).
    @discardableResult
    public func on(
        _ route: GatewayRoute,
        use handler: @escaping @Sendable (Request, GatewayRequestContext) async throws -> Response
    ) -> Self {
        let authentication = route.authentication
        let scope = route.scope
        return on(RouterPath(route.path), method: HTTPRequest.Method(route.method)) { request, context in
            try context.requireCredentials(authentication)
            do {
                try context.requireScope(scope)
            } catch {
                if let principal = context.principal {
                    try await context.securityLog?.record(
                        .scopeRefused, merchantID: principal.merchantID, userID: principal.userID,
                        address: context.clientAddress,
                        detail: "A credential of kind '\(principal.kind.rawValue)' was refused on \(route.description).")
                }
                throw error
            }
            return try await handler(request, context)
        }
    }
}

extension HTTPRequest.Method {
    /// The method of the contract's `method`.
    init(_ method: GatewayHTTPMethod) {
        switch method {
        case .get: self = .get
        case .post: self = .post
        case .put: self = .put
        case .delete: self = .delete
        }
    }
}

extension GatewayRequestContext {
    /// Throws unless the caller presented credentials `authentication` accepts: the checks
    /// the routes' handlers make with ``requireMerchant(allowingAPIKey:)`` and
    /// ``requireUser()``. Routes taking an API key check which key in their handler (the
    /// first merchant's, for publishing and adding merchants).
    ///
    /// - Throws: 4010/4011 without valid credentials, 4030 for credentials of another kind.
    func requireCredentials(_ authentication: GatewayAuthentication) throws(GatewayError) {
        switch authentication {
        case .none, .apiKey: return
        case .accessToken: _ = try requireUser()
        case .bearer: _ = try requireMerchant()
        case .bearerOrAPIKey: _ = try requireMerchant(allowingAPIKey: true)
        }
    }
}

extension GatewayRequestContext {
    /// Throws unless the caller's credential carries `scope` (a route with the public scope
    /// needs none).
    ///
    /// - Throws: 4031 ``GatewayErrorCode/insufficientScope`` naming the credential's kind and
    ///   the scope.
    func requireScope(_ scope: GatewayScope) throws(GatewayError) {
        guard scope != .public, let principal, !principal.scopes.contains(scope) else { return }
        throw .insufficientScope(
            "A credential of kind '\(principal.kind.rawValue)' may not use this route: it needs the '\(scope.rawValue)' scope.")
    }
}
