import Foundation
import GatewayAPI

extension SandboxGateway {
    /// Adds a merchant to the sandbox database at `configuration.databasePath` (created and
    /// migrated if missing), with one user and one API key, and returns its credentials:
    /// they are shown once, only their hashes are stored.
    ///
    /// A running gateway on the same database serves the new merchant at once; each
    /// merchant sees only its own transactions, reports, inventory, outbox and webhooks.
    ///
    /// ```swift
    /// let second = try await SandboxGateway.addMerchant(.init(databasePath: "/tmp/sandbox.sqlite"), name: "Team B")
    /// print(second.user, second.password, second.apiKey)
    /// ```
    ///
    /// - Parameter name: the merchant's display name; a default when `nil`.
    /// - Throws: database errors, or ``GatewayError`` when `name` is empty or longer than 100 characters.
    public static func addMerchant(
        _ configuration: SandboxGatewayConfiguration, name: String? = nil
    ) async throws -> SandboxCredentials {
        let store = try GatewayStore(path: configuration.databasePath)
        return try await AccountService(store: store, configuration: configuration).addMerchant(name: name)
    }
}

extension SandboxGateway {
    /// Sets a merchant's offline limits in the sandbox database at
    /// `configuration.databasePath`; a running gateway returns them at the next login.
    ///
    /// - Throws: database errors, or ``GatewayError`` for limits out of range.
    public static func setOfflinePolicy(
        _ configuration: SandboxGatewayConfiguration, merchantID: String, _ terms: OfflinePolicyTerms
    ) async throws {
        let store = try GatewayStore(path: configuration.databasePath)
        try await AccountService(store: store, configuration: configuration).setOfflinePolicy(merchantID: merchantID, terms)
    }
}
