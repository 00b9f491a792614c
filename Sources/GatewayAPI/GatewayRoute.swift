/// One route of the gateway without its body types: method, path template, authentication,
/// scope and idempotency. Each ``GatewayEndpoint`` carries one; lists of routes of different body
/// types (``GatewayRoutes/all``) hold these.
public struct GatewayRoute: Sendable, Hashable, CustomStringConvertible {
    /// The HTTP method.
    public let method: GatewayHTTPMethod
    /// The path template, with `{name}` placeholders (the syntax of OpenAPI and of
    /// Hummingbird's router); ``path(filling:)`` fills them.
    public let path: String
    /// The credentials the route accepts.
    public let authentication: GatewayAuthentication
    /// What the route lets its caller do: a credential without this scope is refused.
    public let scope: GatewayScope
    /// Whether the route requires an `Idempotency-Key` header.
    public let requiresIdempotencyKey: Bool
    /// Whether the route reads a JSON body.
    public let hasJSONBody: Bool

    /// Describes a route.
    public init(
        _ method: GatewayHTTPMethod, _ path: String, authentication: GatewayAuthentication,
        scope: GatewayScope, idempotent: Bool = false, body: Bool = false
    ) {
        self.method = method
        self.path = path
        self.authentication = authentication
        self.scope = scope
        self.requiresIdempotencyKey = idempotent
        self.hasJSONBody = body
    }

    /// The names of the template's `{name}` placeholders, in order (`["id"]` for
    /// `/v1/transactions/{id}/refund`).
    public var parameterNames: [String] {
        path.split(separator: "/").compactMap { segment in
            segment.first == "{" && segment.last == "}" ? String(segment.dropFirst().dropLast()) : nil
        }
    }

    /// The path with each `{name}` replaced by the percent-encoded value from `values`, so an
    /// id holding `/`, `?`, `%` or a space stays one path segment.
    ///
    /// ```swift
    /// GatewayRoutes.capture.route.path(filling: ["id": "tx 1/2"])  // "/v1/transactions/tx%201%2F2/capture"
    /// ```
    public func path(filling values: [String: String]) -> String {
        GatewayPaths.filling(path, values)
    }

    /// `"METHOD path"`, such as `"POST /v1/auth/login"`.
    public var description: String { "\(method.rawValue) \(path)" }
}
