#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `POST /v1/merchants`: the new merchant's display name (a default when absent).
public struct CreateMerchantRequest: Codable, Sendable, Hashable {
    /// The display name, 1 to 100 characters.
    public var name: String?

    /// Creates a request.
    public init(name: String? = nil) { self.name = name }
}

/// A new sandbox merchant's credentials, answered once: the gateway stores only their hashes.
public struct MerchantCredentials: Codable, Sendable, Hashable {
    /// The merchant id.
    public var merchantID: String
    /// The user id to log in with.
    public var user: String
    /// The user's password.
    public var password: String
    /// The merchant's API key for `X-API-Key`.
    public var apiKey: String
    /// The user's e-mail address.
    public var email: String

    /// Creates the credentials.
    public init(merchantID: String, user: String, password: String, apiKey: String, email: String) {
        self.merchantID = merchantID
        self.user = user
        self.password = password
        self.apiKey = apiKey
        self.email = email
    }
}
