import Foundation
import GRDB
import MPOSCore

/// Refunds of merchants that asked for asynchronous refunds (``AsynchronousRefunds``).
extension PaymentService {
    /// Whether `merchant` has asynchronous refunds on.
    public func asynchronousRefunds(merchant: String) async throws -> Bool {
        try await database.read { db in try AsynchronousRefunds.isOn(db, merchant: merchant) }
    }

    /// Refunds `id` as the merchant asked: decided now (``refund(merchant:id:amount:)``), or,
    /// with asynchronous refunds on, accepted now as received (``acceptRefund(merchant:id:amount:)``).
    public func refundAsConfigured(merchant: String, id: String, amount: Int64?) async throws -> LedgerTransaction {
        if try await asynchronousRefunds(merchant: merchant) {
            return try await acceptRefund(merchant: merchant, id: id, amount: amount)
        }
        return try await refund(merchant: merchant, id: id, amount: amount).followUp
    }

    /// Accepts a refund of `id` (in full when `amount` is nil, else in part) without deciding it:
    /// the refund row is stored with status `pending` and nothing of the original changes until
    /// ``PendingRefundSettler`` approves it. The request is checked against the original as it
    /// is now; settlement checks again, so two refunds of the whole amount accepted one after
    /// the other end with the second declined.
    ///
    /// - Throws: ``PaymentRuleViolation`` when the original is unknown to the merchant, cannot
    ///   be refunded or has less left than `amount`.
    public func acceptRefund(merchant: String, id: String, amount: Int64?) async throws -> LedgerTransaction {
        let time = now()
        let (row, webhook) = try await writer.write { db in
            try Self.recordAcceptedRefund(db, merchant: merchant, id: id, amount: amount, at: time)
        }
        await webhooks?.notify([row], config: webhook)
        return row
    }

    /// Records a refund of `id` inside the caller's transaction as the merchant asked:
    /// decided now, or with `asynchronous` refunds accepted as pending
    /// (``recordAcceptedRefund(_:merchant:id:amount:at:)``). Returns the refund, the rows to
    /// notify about (the refund first) and the webhook configuration.
    static func recordRefund(
        _ db: any SQLSession, merchant: String, id: String, amount: Int64?, asynchronous: Bool, at time: Date,
        idempotencyKey: String? = nil
    ) throws -> (refund: LedgerTransaction, rows: [LedgerTransaction], webhook: LedgerWebhookConfig?) {
        if asynchronous {
            let (row, webhook) = try recordAcceptedRefund(
                db, merchant: merchant, id: id, amount: amount, at: time, idempotencyKey: idempotencyKey)
            return (row, [row], webhook)
        }
        let record = try recordFollowUp(
            db, merchant: merchant, id: id, at: time, idempotencyKey: idempotencyKey,
            change: refundChange(merchant: merchant, amount: amount))
        return (record.followUp, [record.followUp, record.original], record.webhook)
    }

    /// Stores a pending refund of `id` inside the caller's transaction (see
    /// ``acceptRefund(merchant:id:amount:)``) and returns it with the webhook configuration.
    static func recordAcceptedRefund(
        _ db: any SQLSession, merchant: String, id: String, amount: Int64?, at time: Date,
        idempotencyKey: String? = nil
    ) throws -> (LedgerTransaction, LedgerWebhookConfig?) {
        let original = try fetchOriginal(db, merchant: merchant, id: id)
        let amount = try PaymentRules.refundAmount(original: try summary(db, original), requested: amount)
        var row = try followUp(of: original, kind: .refund, amount: amount, now: time)
        row.idempotencyKey = idempotencyKey
        AsynchronousRefunds.received(&row)
        try row.insertCached(db)
        try AsynchronousRefunds.enqueue(db, row)
        return (row, try WebhookOutbox.record(db, [row], merchant: merchant, at: time))
    }
}
