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
        notifier = WebhookNotifier(outbox: environment.webhookOutbox)
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
