import Foundation
import GRDB

/// Tells the gateway's webhook outbox that a commit stored events, so they go out at once
/// rather than at the next periodic pass; the events themselves are written by the commit
/// (``WebhookOutbox``). Also keeps the delivery log in the ledger database.
public struct WebhookNotifier: Sendable {
    /// The instance's outbox delivery.
    let outbox: WebhookOutboxRelay

    /// Posts, retries and logs the outbox's events.
    public var dispatcher: WebhookDispatcher { outbox.dispatcher }

    init(outbox: WebhookOutboxRelay) { self.outbox = outbox }

    /// The merchant's enabled webhook, read inside the writing transaction so the decision to
    /// notify matches the committed state.
    static func config(_ db: any SQLSession, merchant: String) throws -> LedgerWebhookConfig? {
        // Raw SQL (cached by the session): every payment's write runs it.
        try db.fetchOne(
            LedgerWebhookConfig.self, sql: "SELECT * FROM payment_webhook_config WHERE merchant_id = ? AND enabled = 1",
            arguments: [merchant])
    }

    /// Starts delivering the events the commit that changed `rows` stored for the merchant's
    /// webhook (none when `config` is `nil`).
    public func notify(_ rows: [LedgerTransaction], config: LedgerWebhookConfig?) async {
        guard config != nil, !rows.isEmpty else { return }
        outbox.kick()
    }

    /// Starts delivering the event the commit of `row` stored for the callback URL its payment
    /// named: the same body as the webhook, signed with the merchant's webhook secret when one
    /// is set, retried and logged as webhooks are.
    public func callback(_ row: LedgerTransaction, to url: URL, config: LedgerWebhookConfig?) async {
        outbox.kick()
    }

    /// A new event id, `evt_` and 16 hex digits.
    static func newEventID() -> String {
        var generator = SystemRandomNumberGenerator()
        return "evt_" + String(UInt64.random(in: 0...UInt64.max, using: &generator), radix: 16)
    }
}

/// The delivery log in the `payment_webhook_delivery` table.
public struct SQLiteWebhookDeliveryLog: WebhookDeliveryLog {
    /// The ledger database.
    public let database: any GatewayDatabase

    /// Creates a log.
    public init(database: any GatewayDatabase) { self.database = database }

    /// Stores one attempt; a failure to log is dropped rather than failing the delivery.
    public func record(_ attempt: WebhookAttempt) async {
        // A log row that cannot be written is dropped rather than failing the delivery.
        try? await database.write { db in try attempt.insert(db) }
    }

    /// The merchant's most recent attempts, newest first.
    public static func recent(_ db: any SQLSession, merchant: String, limit: Int) throws -> [WebhookAttempt] {
        try db.fetchAll(sql: "SELECT * FROM payment_webhook_delivery WHERE merchant_id = ? ORDER BY id DESC LIMIT ?",
            arguments: [merchant, limit]
        ).map(WebhookAttempt.init(row:))
    }
}
