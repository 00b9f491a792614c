import GatewayAPI

extension GatewayRequestContext {
    /// The caller's merchant id when it presented the API key of the sandbox's first merchant,
    /// which owns the sandbox: only that key adds merchants and publishes updates.
    ///
    /// - Parameters:
    ///   - accounts: where the first merchant is looked up.
    ///   - passive: what the route does, in the passive ("Merchants are added").
    ///   - active: the same, said of the key ("adds merchants").
    /// - Throws: 4010 without credentials, 4030 for a token or another merchant's key.
    func requireFirstMerchantAPIKey(
        _ accounts: AccountService, passive: String, active: String
    ) async throws -> String {
        guard let principal, principal.kind == .apiKey else {
            if principal != nil {
                throw GatewayError.forbidden("\(passive) with the \(GatewayHeaders.apiKey) header.")
            }
            throw authenticationFailure ?? .unauthorized("The \(GatewayHeaders.apiKey) header is required.")
        }
        guard try await accounts.isFirstMerchant(principal.merchantID) else {
            throw GatewayError.forbidden("Only the API key of the sandbox's first merchant \(active).")
        }
        return principal.merchantID
    }
}
