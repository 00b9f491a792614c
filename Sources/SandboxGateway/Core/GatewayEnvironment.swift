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
    /// Where payment and idempotency writes go: the store's ``GatewayStore/groupCommitWriter``,
    /// or one transaction per write when ``SandboxGatewayConfiguration/groupCommit`` is off.
    public let ledgerWriter: any LedgerWriter
    /// Card fingerprints keyed with the store's key (never kept in the database).
    let cardFingerprinter: CardFingerprinter
    /// This instance's delivery of the webhook outbox, shared by every domain's notifier.
    let webhookOutbox: WebhookOutboxRelay
    /// Where webhooks and payment callbacks may go: checked when a URL is configured and
    /// before each delivery (``SandboxGatewayConfiguration/webhookDestinations``).
    public let webhookDestinations: WebhookDestinations

    /// The gateway's current time (the injected clock).
    public var now: Date { configuration.now() }

    /// - Throws: ``GatewayStartupError/fingerprintKeyRequired`` when the store was opened
    ///   without a card-fingerprint key.
    init(configuration: SandboxGatewayConfiguration, store: GatewayStore) async throws {
        self.configuration = configuration
        self.store = store
        self.ledgerWriter =
            configuration.groupCommit ? store.groupCommitWriter : DirectLedgerWriter(database: store.database)
        self.accounts = AccountService(store: store, configuration: configuration)
        self.idempotency = IdempotencyStore(store: store, configuration: configuration, writer: ledgerWriter)
        guard let key = store.fingerprintKey else {
            throw GatewayStartupError.fingerprintKeyRequired(
                toServe: configuration.databaseURL?.description ?? configuration.databasePath)
        }
        self.cardFingerprinter = CardFingerprinter(key: key)
        let destinations = WebhookDestinations(policy: configuration.webhookDestinations, listeningOn: configuration.host)
        self.webhookDestinations = destinations
        self.webhookOutbox = WebhookOutboxRelay(
            database: store.database, instanceID: store.instanceID, lease: configuration.webhookClaimLease,
            transport: HTTPClientWebhookTransport(timeout: configuration.webhookTimeout), destinations: destinations,
            clock: configuration.webhookClock, now: configuration.now)
    }
}
