/// GatewayAPI: the HTTP contract between the SDK and a gateway.
///
/// One source for both sides: the SDK encodes the request types and decodes the response
/// types; the sandbox gateway does the reverse. Nothing here depends on a server or client
/// framework, so an app that links the SDK links no server code.
///
/// - Endpoints: ``GatewayRoutes`` declares each one once as a ``GatewayEndpoint`` (method,
///   path template, authentication, idempotency, request and response types): the server
///   registers its routes from it, the SDK's client sends through it, and the OpenAPI
///   document and the tests agree with it. ``GatewayPaths`` names the same paths.
/// - Headers: ``GatewayHeaders``.
/// - Errors: every non-2xx answer carries a ``GatewayErrorBody`` with a code from
///   ``GatewayErrorCode``.
/// - JSON: Codable throughout; ``GatewayJSON`` holds the one encoder and decoder both sides
///   use (ISO 8601 dates, sorted keys).
public enum GatewayAPIInfo {
    /// The API version prefix of every path.
    public static let pathPrefix = "/v1"
}
