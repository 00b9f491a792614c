import Foundation
import GRDB

/// Turns committed transaction changes into webhook deliveries for merchants that configured
/// a webhook, and keeps the delivery log in the ledger database.
public struct WebhookNotifier: Sendable {
    /// Posts and retries.
    public let dispatcher: WebhookDispatcher
    /// The display name put in `merchant_name`, by merchant id.
    public let merchantName: @Sendable (String) async -> String?

    /// Creates a notifier.
    public init(
        dispatcher: WebhookDispatcher, merchantName: @escaping @Sendable (String) async -> String? = { _ in nil }
    ) {
        self.dispatcher = dispatcher
        self.merchantName = merchantName
    }

    /// The merchant's enabled webhook, read inside the writing transaction so the decision to
    /// notify matches the committed state.
    static func config(_ db: any SQLSession, merchant: String) throws -> LedgerWebhookConfig? {
        // Raw SQL (cached by the session): every payment's write runs it.
        try db.fetchOne(
            LedgerWebhookConfig.self, sql: "SELECT * FROM payment_webhook_config WHERE merchant_id = ? AND enabled = 1",
            arguments: [merchant])
    }

    /// Queues one delivery per changed transaction.
    public func notify(_ rows: [LedgerTransaction], config: LedgerWebhookConfig?) async {
        guard let config, let url = URL(string: config.url) else { return }
        for row in rows {
            guard let body = try? await body(for: row) else { continue }
            await dispatcher.enqueue(
                .init(
                    eventID: Self.newEventID(), merchantID: row.merchantId, transactionID: row.id, body: body,
                    url: url,
                    secret: config.secret.isEmpty ? nil : config.secret))
        }
    }

    /// Queues the post of a payment's outcome to the callback URL its request named: the same
    /// body as the webhook, signed with the merchant's webhook secret when one is set, and
    /// retried and logged by the same dispatcher.
    public func callback(_ row: LedgerTransaction, to url: URL, config: LedgerWebhookConfig?) async {
        guard let body = try? await body(for: row) else { return }
        await dispatcher.enqueue(
            .init(
                eventID: Self.newEventID(), merchantID: row.merchantId, transactionID: row.id, body: body,
                url: url,
                secret: config.flatMap { $0.secret.isEmpty ? nil : $0.secret }))
    }

    /// A new event id, `evt_` and 16 hex digits.
    static func newEventID() -> String {
        var generator = SystemRandomNumberGenerator()
        return "evt_" + String(UInt64.random(in: 0...UInt64.max, using: &generator), radix: 16)
    }

    /// The callback body for a transaction's current state: the Accept callback's fields, the
    /// card number masked.
    public func body(for row: LedgerTransaction) async throws -> [UInt8] {
        try WebhookBody.encode(row, merchantName: await merchantName(row.merchantId) ?? row.merchantId)
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
        try? await database.write { db in try attempt.insert(db) }
    }

    /// The merchant's most recent attempts, newest first.
    public static func recent(_ db: any SQLSession, merchant: String, limit: Int) throws -> [WebhookAttempt] {
        try db.fetchAll(sql: "SELECT * FROM payment_webhook_delivery WHERE merchant_id = ? ORDER BY id DESC LIMIT ?",
            arguments: [merchant, limit]
        ).map(WebhookAttempt.init(row:))
    }
}
