import Foundation
import GRDB
import Logging

/// The payments domain's long-lived parts for one running gateway: the service, the
/// group-commit writer and the webhook dispatcher.
struct PaymentDomain: Sendable {
    let payments: PaymentService
    let notifier: WebhookNotifier

    /// Builds the domain over the gateway's database and clock. Card fingerprints are keyed
    /// with the gateway secret kept in `payment_secret` (made at migration time), so they
    /// match across restarts.
    static func shared(for environment: GatewayEnvironment) -> PaymentDomain {
        let pool = environment.store.writer
        let secret: [UInt8] =
            (try? pool.read { db in
                try Data.fetchOne(db, sql: "SELECT value FROM payment_secret WHERE name = 'card_fingerprint'")
            }).flatMap { $0 }.map(Array.init) ?? CardFingerprinter.randomSecret()
        let accounts = environment.accounts
        let notifier = WebhookNotifier(
            dispatcher: WebhookDispatcher(
                log: SQLiteWebhookDeliveryLog(database: pool), clock: environment.configuration.webhookClock,
                now: environment.configuration.now),
            merchantName: { id in try? accounts.merchantInfo(merchantID: id, userID: nil).name })
        var logger = Logger(label: "mposkit.sandbox-gateway.payments")
        logger.logLevel = environment.configuration.logLevel
        let payments = PaymentService(
            database: pool, writer: makeWriter(pool, groupCommit: environment.configuration.groupCommit),
            issuer: SandboxCardIssuer(),
            fingerprinter: CardFingerprinter(secret: secret), webhooks: notifier,
            now: environment.configuration.now,
            logger: logger)
        return PaymentDomain(payments: payments, notifier: notifier)
    }

    /// Group commit, unless the configuration asks for one transaction per write.
    static func makeWriter(_ pool: DatabasePool, groupCommit: Bool) -> any LedgerWriter {
        if !groupCommit {
            return DirectLedgerWriter(database: pool)
        }
        return SharedGroupCommit.writer(for: pool)
    }
}
