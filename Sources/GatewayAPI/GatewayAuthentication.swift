/// How a route authenticates its caller.
public enum GatewayAuthentication: String, Sendable, Hashable, Codable, CaseIterable {
    /// No credentials.
    case none
    /// `Authorization: Bearer` with a user's access token (from login) only.
    case accessToken
    /// `Authorization: Bearer` with an access token or a client token.
    case bearer
    /// `X-API-Key` only.
    case apiKey
    /// `Authorization: Bearer` (either kind of token) or `X-API-Key`.
    case bearerOrAPIKey
}
