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

    /// The original's row (`locking` in a write); on PostgreSQL locked until the follow-up's transaction ends, so
    /// that two instances deciding follow-ups of one payment (two refunds, a void and a
    /// capture) decide one after the other, each on the amounts the other left.
    private static let originalForUpdate = original + " FOR UPDATE"
    private static let original = "SELECT * FROM payment_transaction WHERE id = ? AND merchant_id = ?"

    static func fetchOriginal(
        _ db: any SQLSession, merchant: String, id: String, locking: Bool = true
    ) throws -> LedgerTransaction {
        guard
            let row = try db.fetchOne(
                LedgerTransaction.self, sql: locking && db.dialect == .postgres ? originalForUpdate : original,
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

    /// Runs a follow-up on `id` inside one write: loads the original, lets `change` mutate it
    /// and build the follow-up row, saves both and sends webhooks for both.
    private func followUp(
        merchant: String, id: String,
        change: @escaping @Sendable (any SQLSession, inout LedgerTransaction, Date) throws -> LedgerTransaction
    ) async throws -> (followUp: LedgerTransaction, original: LedgerTransaction) {
        let time = now()
        let result = try await writer.write { db in
            var original = try Self.fetchOriginal(db, merchant: merchant, id: id)
            var row = try change(db, &original, time)
            original.updatedAt = time
            try db.update(original, key: ["seq"])
            try row.insertCached(db)
            return (row, original, try WebhookOutbox.record(db, [row, original], merchant: merchant, at: time))
        }
        await webhooks?.notify([result.0, result.1], config: result.2)
        return (result.0, result.1)
    }

    /// Captures an approved (pre-)authorisation in full (`amount` nil) or in part.
    public func capture(merchant: String, id: String, amount: Int64?) async throws -> (
        followUp: LedgerTransaction, original: LedgerTransaction
    ) {
        try await followUp(merchant: merchant, id: id) { db, original, time in
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
        try await followUp(merchant: merchant, id: id) { db, original, time in
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
        try await followUp(merchant: merchant, id: id) { db, original, time in
            let kind = try PaymentRules.voidKind(original: try Self.summary(db, original), reversal: reversal)
            original.status = .reversed
            var row = try Self.followUp(of: original, kind: kind, amount: original.amountApproved, now: time)
            row.status = .processed
            row.acquirerMessage = reversal ? "Reversed" : "Voided"
            row.batchId = original.batchId
            return row
        }
    }

    /// Refunds a captured transaction in full (`amount` nil) or in part.
    public func refund(merchant: String, id: String, amount: Int64?) async throws -> (
        followUp: LedgerTransaction, original: LedgerTransaction
    ) {
        try await followUp(merchant: merchant, id: id) { db, original, time in
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
