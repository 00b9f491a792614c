/// One endpoint of the gateway contract, declared once in ``GatewayRoutes``: its route
/// (method, path template, authentication, idempotency) and the types of its request and
/// response bodies. The sandbox gateway registers its handlers from these values and the
/// SDK's client sends through them, so both sides agree by construction.
///
/// `Request` is ``GatewayNoBody`` for a route that reads no body and ``GatewayBytes`` for
/// one whose body is not JSON; `Response` likewise.
///
/// ```swift
/// let refund = GatewayRoutes.refund  // GatewayEndpoint<RefundRequest, Transaction>
/// refund.method                      // .post
/// refund.path(id: "tx_1")            // "/v1/transactions/tx_1/refund"
/// ```
public struct GatewayEndpoint<Request, Response>: Sendable, Hashable, CustomStringConvertible {
    /// The endpoint's route without its body types.
    public let route: GatewayRoute

    /// Declares an endpoint. Whether it reads a JSON body follows from `Request`.
    public init(
        _ method: GatewayHTTPMethod, _ path: String, authentication: GatewayAuthentication,
        scope: GatewayScope, idempotent: Bool = false
    ) {
        let hasJSONBody = !(Request.self == GatewayNoBody.self || Request.self == GatewayBytes.self)
        route = GatewayRoute(
            method, path, authentication: authentication, scope: scope, idempotent: idempotent,
            body: hasJSONBody)
    }

    /// The HTTP method.
    public var method: GatewayHTTPMethod { route.method }
    /// The path template, with `{name}` placeholders.
    public var path: String { route.path }
    /// The credentials the endpoint accepts.
    public var authentication: GatewayAuthentication { route.authentication }
    /// What the endpoint lets its caller do.
    public var scope: GatewayScope { route.scope }
    /// Whether a request must carry an `Idempotency-Key` header.
    public var requiresIdempotencyKey: Bool { route.requiresIdempotencyKey }
    /// Whether the endpoint reads a JSON body.
    public var hasJSONBody: Bool { route.hasJSONBody }

    /// The path with `{id}` filled with `id`, percent-encoded.
    public func path(id: String) -> String { route.path(filling: ["id": id]) }

    /// The path with `{key}` filled with `key`, percent-encoded.
    public func path(key: String) -> String { route.path(filling: ["key": key]) }

    /// `"METHOD path"`, such as `"POST /v1/auth/login"`.
    public var description: String { route.description }
}

/// The body of an endpoint that sends or answers none (or an empty JSON object the gateway
/// ignores).
public struct GatewayNoBody: Codable, Sendable, Hashable {
    /// The empty body.
    public init() {}
}

/// The body of an endpoint that is not JSON: an update image, the OpenAPI document, or the
/// stored answer of another request replayed byte for byte.
public struct GatewayBytes: Sendable, Hashable {}

/// The answer of `GET /health`.
public struct HealthStatus: Codable, Sendable, Hashable {
    /// `"ok"` while the gateway serves, `"unavailable"` (with status 503) while its database
    /// does not answer.
    public var status: String
    /// `"reachable"` or `"unreachable"`: whether the gateway's database answered a query just
    /// now (within two seconds). A load balancer takes an instance whose database is
    /// unreachable out of rotation.
    public var database: String?

    /// Creates the answer.
    public init(status: String = "ok", database: String? = "reachable") {
        self.status = status
        self.database = database
    }
}
