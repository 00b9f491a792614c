/// The names of the HTTP headers the gateway API uses.
public enum GatewayHeaders {
    /// `Authorization: Bearer <token>`: an access token from login, or a client token.
    public static let authorization = "Authorization"
    /// The scheme prefix of the `Authorization` header value, with its trailing space.
    public static let bearerPrefix = "Bearer "
    /// `Idempotency-Key: <key>`: required on every request that moves money; see
    /// `IdempotencyKey` for the accepted characters.
    public static let idempotencyKey = "Idempotency-Key"
    /// `X-API-Key: <key>`: the merchant's secret API key, accepted only where a route says
    /// so (minting client tokens, reading the sandbox outbox).
    public static let apiKey = "X-API-Key"
    /// Set to `true` on a response that replays a stored idempotent answer.
    public static let idempotentReplayed = "Idempotent-Replayed"
}
