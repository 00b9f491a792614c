import EMV
import Foundation
import GRDB
import GatewayAPI
import Logging
import MPOSCore

/// The payments domain: takes commands, applies ``PaymentRules``, asks the issuer, writes the
/// ledger and announces every state change to the webhook notifier.
///
/// Routes stay thin: they decode, call one method here and encode the result.
public struct PaymentService: Sendable {
    /// The ledger's database (reads).
    public let database: any GatewayDatabase
    /// How writes reach the database.
    public let writer: any LedgerWriter
    /// The issuer.
    public let issuer: any PaymentIssuer
    /// Keys card fingerprints.
    public let fingerprinter: CardFingerprinter
    /// Sends webhooks after commits; `nil` sends none.
    public let webhooks: WebhookNotifier?
    /// The current time.
    public let now: @Sendable () -> Date
    /// Where to log; never with card numbers.
    public let logger: Logger

    /// Creates the service.
    public init(
        database: any GatewayDatabase, writer: any LedgerWriter, issuer: any PaymentIssuer,
        fingerprinter: CardFingerprinter, webhooks: WebhookNotifier? = nil,
        now: @escaping @Sendable () -> Date = { Date() }, logger: Logger = Logger(label: "sandbox.payments")
    ) {
        self.database = database
        self.writer = writer
        self.issuer = issuer
        self.fingerprinter = fingerprinter
        self.webhooks = webhooks
        self.now = now
        self.logger = logger
    }

    /// A new transaction id: `txn_`, 12 hex digits of `time` in milliseconds since 1970 and
    /// 12 random hex digits (48 bits).
    ///
    /// Ids made later sort later, so each insert adds to the end of the unique index on
    /// them: a group commit of a dozen payments writes one or two pages of that index
    /// instead of a page per payment at random places. The random half keeps ids of the
    /// same millisecond apart.
    public static func newTransactionID(at time: Date) -> String {
        "txn_" + Secrets.hex(TimeOrderedPrefix.bytes(of: time) + Secrets.randomBytes(6))
    }
}
