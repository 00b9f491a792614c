import EMV
import Foundation
import GRDB
import GatewayAPI
import Logging
import MPOSCore

/// Follow-ups on a recorded transaction: capture, tip adjustment, void, reversal and refund.
extension PaymentService {
    static func isBatchOpen(_ db: any SQLSession, _ id: Int64?) throws -> Bool {
        guard let id else { return false }
        return try db.fetchValue(String.self, sql: "SELECT status FROM payment_batch WHERE id = ?", arguments: [id])
            == "open"
    }

    /// The original's row (`locking` in a write), locked until the follow-up's transaction ends
    /// where instances share the database, so that two instances deciding follow-ups of one
    /// payment (two refunds, a void and a capture) decide one after the other, each on the
    /// amounts the other left.
    private static let original = "SELECT * FROM payment_transaction WHERE id = ? AND merchant_id = ?"

    static func fetchOriginal(
        _ db: any SQLSession, merchant: String, id: String, locking: Bool = true
    ) throws -> LedgerTransaction {
        guard
            let row = try db.fetchOne(
                LedgerTransaction.self, sql: locking ? original + db.dialect.lockingReadRows : original,
                arguments: [id, merchant])
        else { throw PaymentRuleViolation(.notFound, "No transaction \(id.prefix(64)) for this merchant.") }
        return row
    }

    static func summary(_ db: any SQLSession, _ row: LedgerTransaction) throws -> PaymentRules.Original {
        var original = PaymentRules.Original(
            kind: row.kind, status: row.status,
            approvedAmount: row.amountApproved,
            capturedAmount: row.amountCaptured, refundedAmount: row.amountRefunded,
            batchOpen: try isBatchOpen(db, row.batchId),
            tipAdjustable: row.captureMode == CaptureMode.tipAdjustment.rawValue
                || row.kind != .sale)
        original.tipAmount = row.amountTip
        original.createdAt = row.createdAt
        return original
    }

    /// A follow-up row (capture, refund, void, tip) copying the original's card facts.
    static func followUp(
        of original: LedgerTransaction, kind: TransactionKind, amount: Int64, now: Date
    ) throws -> LedgerTransaction {
        let currency = try PaymentRules.currency(code: original.currency.code)
        var row = LedgerTransaction(
            id: newTransactionID(at: now), merchantId: original.merchantId, kind: kind, status: .approved,
            amount: amount,
            currency: currency, now: now)
        row.originalId = original.id
        row.amountApproved = amount
        row.cardFingerprint = original.cardFingerprint
        row.maskedPan = original.maskedPan
        row.brand = original.brand
        row.expiry = original.expiry
        row.cardholderName = original.cardholderName
        row.entryMode = original.entryMode
        row.aid = original.aid
        row.applicationLabel = original.applicationLabel
        row.customerReference = original.customerReference
        row.responseCode = "00"
        row.acquirerMessage = "Processed"
        return row
    }

    /// A follow-up's decision: checks the original (loaded and locked), changes it and builds
    /// the follow-up row.
    typealias FollowUpChange = @Sendable (any SQLSession, inout LedgerTransaction, Date) throws -> LedgerTransaction

    /// What a follow-up wrote, and the webhook configuration to notify with once committed.
    struct FollowUpRecord: Sendable {
        let followUp: LedgerTransaction
        let original: LedgerTransaction
        let webhook: LedgerWebhookConfig?

        /// The rows to notify about, the follow-up first, with the webhook configuration.
        var notified: (rows: [LedgerTransaction], webhook: LedgerWebhookConfig?) {
            ([followUp, original], webhook)
        }
    }

    /// Records a follow-up on `id` inside the caller's transaction: loads the original, lets
    /// `change` mutate it and build the follow-up row, and saves both. The routes run it in the
    /// transaction of the request's idempotency key, so that the follow-up and its stored answer
    /// commit together: an instance killed in between leaves neither, never a key "in progress"
    /// over a follow-up already made. The follow-up row keeps `idempotencyKey`, the request's key
    /// (``LedgerAttempts``).
    static func recordFollowUp(
        _ db: any SQLSession, merchant: String, id: String, at time: Date, idempotencyKey: String? = nil,
        change: FollowUpChange
    ) throws -> FollowUpRecord {
        var original = try fetchOriginal(db, merchant: merchant, id: id)
        let row = try change(db, &original, time)
        original.updatedAt = time
        try db.update(original, key: ["seq"])
        var inserted = row
        inserted.idempotencyKey = idempotencyKey
        try inserted.insertCached(db)
        return FollowUpRecord(
            followUp: inserted, original: original,
            webhook: try WebhookOutbox.record(db, [inserted, original], merchant: merchant, at: time))
    }

    /// Sends the webhooks of a committed follow-up.
    func notify(_ record: FollowUpRecord) async {
        await webhooks?.notify([record.followUp, record.original], config: record.webhook)
    }

    /// Runs a follow-up on `id` inside one write and sends webhooks for both rows.
    private func followUp(
        merchant: String, id: String, change: @escaping FollowUpChange
    ) async throws -> (followUp: LedgerTransaction, original: LedgerTransaction) {
        let time = now()
        let record = try await writer.write { db in
            try Self.recordFollowUp(db, merchant: merchant, id: id, at: time, change: change)
        }
        await notify(record)
        return (record.followUp, record.original)
    }

    /// Captures an approved (pre-)authorisation in full (`amount` nil) or in part.
    public func capture(merchant: String, id: String, amount: Int64?) async throws -> (
        followUp: LedgerTransaction, original: LedgerTransaction
    ) {
        try await followUp(merchant: merchant, id: id, change: Self.captureChange(merchant: merchant, amount: amount))
    }

    /// The change of ``capture(merchant:id:amount:)``.
    static func captureChange(merchant: String, amount: Int64?) -> FollowUpChange {
        { db, original, time in
            let amount = try PaymentRules.captureAmount(
                original: try Self.summary(db, original), requested: amount)
            original.amountCaptured = amount
            original.batchId = try Self.openBatch(db, merchant: merchant, now: time)
            var row = try Self.followUp(of: original, kind: .capture, amount: amount, now: time)
            row.amountCaptured = amount
            row.batchId = original.batchId
            return row
        }
    }

    /// Sets the tip on a sale taken with tip adjustment, while its batch is open.
    public func adjustTip(merchant: String, id: String, tip: Int64) async throws -> (
        followUp: LedgerTransaction, original: LedgerTransaction
    ) {
        try await followUp(merchant: merchant, id: id, change: Self.tipChange(tip: tip))
    }

    /// The change of ``adjustTip(merchant:id:tip:)``.
    static func tipChange(tip: Int64) -> FollowUpChange {
        { db, original, time in
            try PaymentRules.checkTipAdjustment(original: try Self.summary(db, original), tip: tip)
            original.amountTip = tip
            var row = try Self.followUp(of: original, kind: .tipAdjustment, amount: max(tip, 0), now: time)
            row.amountTip = tip
            row.batchId = original.batchId
            row.status = .processed
            return row
        }
    }

    /// Voids (batch open) or reverses (any time) an approved sale, authorisation, cash payment or refund.
    public func void(merchant: String, id: String, reversal: Bool) async throws -> (
        followUp: LedgerTransaction, original: LedgerTransaction
    ) {
        try await followUp(merchant: merchant, id: id, change: Self.voidChange(reversal: reversal))
    }

    /// The change of ``void(merchant:id:reversal:)``.
    static func voidChange(reversal: Bool) -> FollowUpChange {
        { db, original, time in
            let kind = try PaymentRules.voidKind(
                original: try Self.summary(db, original), reversal: reversal, now: time)
            original.status = .reversed
            var row = try Self.followUp(of: original, kind: kind, amount: original.amountApproved, now: time)
            row.status = .processed
            row.acquirerMessage = reversal ? LedgerAttempts.reversedMessage : "Voided"
            row.batchId = original.batchId
            return row
        }
    }

    /// Refunds a captured transaction in full (`amount` nil) or in part.
    public func refund(merchant: String, id: String, amount: Int64?) async throws -> (
        followUp: LedgerTransaction, original: LedgerTransaction
    ) {
        try await followUp(merchant: merchant, id: id, change: Self.refundChange(merchant: merchant, amount: amount))
    }

    /// The change of ``refund(merchant:id:amount:)``.
    static func refundChange(merchant: String, amount: Int64?) -> FollowUpChange {
        { db, original, time in
            let amount = try PaymentRules.refundAmount(
                original: try Self.summary(db, original), requested: amount)
            original.amountRefunded += amount
            if original.amountRefunded >= original.amountCaptured + original.amountTip {
                original.status = .refunded
            }
            var row = try Self.followUp(of: original, kind: .refund, amount: amount, now: time)
            row.amountCaptured = amount
            row.batchId = try Self.openBatch(db, merchant: merchant, now: time)
            return row
        }
    }
}
