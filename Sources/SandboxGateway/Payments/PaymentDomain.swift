import Foundation
import GRDB
import Logging

/// The payments domain's long-lived parts for one running gateway: the service and the
/// webhook notifier, over the environment's database, ledger writer and fingerprinter.
struct PaymentDomain: Sendable {
    let payments: PaymentService
    let notifier: WebhookNotifier

    /// Builds the domain over the gateway's database, writer and clock.
    init(environment: GatewayEnvironment) {
        let pool = environment.store.database
        let accounts = environment.accounts
        notifier = WebhookNotifier(
            dispatcher: WebhookDispatcher(
                log: SQLiteWebhookDeliveryLog(database: pool), clock: environment.configuration.webhookClock,
                now: environment.configuration.now),
            merchantName: { id in try? await accounts.merchantInfo(merchantID: id, userID: nil).name })
        var logger = Logger(label: "mposkit.sandbox-gateway.payments")
        logger.logLevel = environment.configuration.logLevel
        payments = PaymentService(
            database: pool, writer: environment.ledgerWriter,
            issuer: SandboxCardIssuer(),
            fingerprinter: environment.cardFingerprinter, webhooks: notifier,
            now: environment.configuration.now,
            logger: logger)
    }
}
