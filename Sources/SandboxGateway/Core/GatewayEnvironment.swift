import Foundation
import GatewayAPI

/// What every domain's routes and services share: the configuration and clock, the
/// database, accounts and idempotency. Passed to each `add…Routes` function.
public struct GatewayEnvironment: Sendable {
    /// The configuration the gateway started with.
    public let configuration: SandboxGatewayConfiguration
    /// The database.
    public let store: GatewayStore
    /// Merchants, users, tokens, outbox.
    public let accounts: AccountService
    /// Stored idempotent answers.
    public let idempotency: IdempotencyStore

    /// The gateway's current time (the injected clock).
    public var now: Date { configuration.now() }

    init(configuration: SandboxGatewayConfiguration, store: GatewayStore) {
        self.configuration = configuration
        self.store = store
        self.accounts = AccountService(store: store, configuration: configuration)
        self.idempotency = IdempotencyStore(store: store, configuration: configuration)
    }
}
