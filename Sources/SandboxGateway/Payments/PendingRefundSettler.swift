import Foundation
import GRDB
import Logging
import MPOSCore
import SandboxCards

/// Decides the refunds accepted as received (``AsynchronousRefunds``) once they have waited
/// the configured delay, and posts each outcome to the merchant's webhook.
///
/// Each refund settles in one write that claims it: the refund row moves from `pending` to its
/// outcome only if it is still `pending`, so two passes (a restarted gateway, two instances on
/// one database) never settle a refund twice. A refund that is approved adds to its original's
/// refunded amount in the same write. Settlement runs at gateway start, for refunds a stopped
/// process left pending, and then at every pass of ``run(every:clock:)``.
public struct PendingRefundSettler: Sendable {
    /// Writes the ledger and sends the webhooks.
    let payments: PaymentService
    /// How long a refund stays pending before it is decided.
    let delay: TimeInterval

    /// A settler over `payments`, deciding refunds `delay` seconds after they were accepted.
    public init(payments: PaymentService, delay: TimeInterval) {
        self.payments = payments
        self.delay = max(0, delay)
    }

    /// What settling one refund decided.
    struct Outcome: Sendable {
        var refund: LedgerTransaction
        var original: LedgerTransaction?
        var webhook: LedgerWebhookConfig?
    }

    /// Settles every refund that has waited the delay, oldest first.
    ///
    /// - Returns: the refunds this pass settled, with their outcome (refunds another pass
    ///   claimed first are left out).
    @discardableResult
    public func settleDue() async throws -> [LedgerTransaction] {
        let cutoff = SQLiteTimestamp.string(from: payments.now().addingTimeInterval(-delay))
        let due = try await payments.database.read { db in
            try db.fetchAll(sql: """
                    SELECT transaction_id FROM payment_pending_refund WHERE accepted_at <= ?
                    ORDER BY accepted_at, transaction_id LIMIT 500
                    """, arguments: [cutoff]
            ).map { $0["transaction_id"] as String }
        }
        var settled: [LedgerTransaction] = []
        for id in due {
            guard let outcome = try await settle(id) else { continue }
            await payments.webhooks?.notify(
                [outcome.refund] + (outcome.original.map { [$0] } ?? []), config: outcome.webhook)
            payments.logger.info(
                "pending refund settled",
                metadata: ["transaction": "\(outcome.refund.id)", "status": "\(outcome.refund.status)"])
            settled.append(outcome.refund)
        }
        return settled
    }

    /// Runs ``settleDue()`` every `interval` on `clock` until the task is cancelled; a failed
    /// pass is logged and the next one tries again.
    public func run<C: Clock>(every interval: Duration, clock: C) async where C.Duration == Duration {
        while !Task.isCancelled {
            do { try await clock.sleep(for: interval) } catch { return }
            do { try await settleDue() } catch {
                payments.logger.error("pending refunds not settled: \(error)")
            }
        }
    }

    /// Decides pending refund `id` and records the outcome in one write; `nil` when another
    /// pass settled it first.
    func settle(_ id: String) async throws -> Outcome? {
        let time = payments.now()
        return try await payments.writer.write { db -> Outcome? in
            guard
                let pending = try db.fetchOne(sql: "SELECT * FROM payment_pending_refund WHERE transaction_id = ?", arguments: [id]),
                let stored = try db.fetchOne(sql: "SELECT * FROM payment_transaction WHERE id = ?", arguments: [id])
            else { return nil }
            try db.execute(sql: "DELETE FROM payment_pending_refund WHERE transaction_id = ?", arguments: [id])
            var refund = try LedgerTransaction(row: stored)
            guard refund.status == .pending else { return nil }
            let decision = try Self.decide(db, refund: refund, pending: pending)
            refund.status = decision.approved ? .approved : .declined
            refund.amountApproved = decision.approved ? refund.amountRequested : 0
            refund.amountCaptured = refund.amountApproved
            refund.responseCode = decision.responseCode
            refund.authCode = decision.approved ? decision.authorizationCode : nil
            refund.acquirerMessage = decision.message
            refund.batchId =
                decision.approved ? try PaymentService.openBatch(db, merchant: refund.merchantId, now: time) : nil
            refund.updatedAt = time
            // The claim: only a refund still pending changes, whoever else is settling.
            let claimed = try db.fetchAll(sql: """
                    UPDATE payment_transaction SET status = ?, amount_approved = ?, amount_captured = ?,
                      response_code = ?, auth_code = ?, acquirer_message = ?, batch_id = ?, updated_at = ?
                    WHERE id = ? AND status = 'pending' RETURNING id
                    """,
                arguments: [
                    refund.status.rawValue, refund.amountApproved, refund.amountCaptured, refund.responseCode,
                    refund.authCode, refund.acquirerMessage, refund.batchId,
                    SQLiteTimestamp.string(from: time), id,
                ])
            guard !claimed.isEmpty else { return nil }
            var original: LedgerTransaction?
            if let originalID = refund.originalId {
                if decision.approved {
                    try db.execute(
                        sql: """
                            UPDATE payment_transaction SET amount_refunded = amount_refunded + ?,
                              status = CASE WHEN amount_refunded + ? >= amount_captured THEN 'refunded' ELSE status END,
                              updated_at = ?
                            WHERE id = ? AND merchant_id = ?
                            """,
                        arguments: [
                            refund.amountApproved, refund.amountApproved, SQLiteTimestamp.string(from: time),
                            originalID, refund.merchantId,
                        ])
                }
                original = try PaymentService.fetchOriginal(db, merchant: refund.merchantId, id: originalID)
            }
            let changed = decision.approved ? original : nil
            return Outcome(
                refund: refund, original: changed,
                webhook: try WebhookOutbox.record(
                    db, [refund] + (changed.map { [$0] } ?? []), merchant: refund.merchantId, at: time))
        }
    }

    /// The outcome of a pending refund: the issuer's answer kept at acceptance (an unreferenced
    /// card refund), or for a referenced one the sandbox's scenario amounts and then whether
    /// its original can still give back the amount.
    static func decide(_ db: any SQLSession, refund: LedgerTransaction, pending: Row) throws -> IssuerAnswer {
        if let approved = pending["decided_approved"] as Bool? {
            return IssuerAnswer(
                approved: approved, approvedAmount: nil,
                responseCode: pending["decided_response_code"] ?? (approved ? "00" : "05"),
                authorizationCode: pending["decided_auth_code"], message: pending["decided_message"] ?? "",
                issuerAuthenticationData: nil)
        }
        func declined(_ code: String, _ message: String) -> IssuerAnswer {
            IssuerAnswer(
                approved: false, approvedAmount: nil, responseCode: code, authorizationCode: nil, message: message,
                issuerAuthenticationData: nil)
        }
        if let scenario = SandboxScenario.forAmount(minor: refund.amountRequested),
            let code = scenario.issuerResponseCode
        {
            return declined(code, "Refund declined: sandbox scenario \(scenario)")
        }
        guard let originalID = refund.originalId else { return declined("12", "Refund has no original.") }
        let original = try PaymentService.fetchOriginal(db, merchant: refund.merchantId, id: originalID)
        let summary = try PaymentService.summary(db, original)
        do {
            _ = try PaymentRules.refundAmount(original: summary, requested: refund.amountRequested)
        } catch {
            return declined("12", "Refund declined: \(error.message)")
        }
        return IssuerAnswer(
            approved: true, approvedAmount: nil, responseCode: "00", authorizationCode: nil, message: "Processed",
            issuerAuthenticationData: nil)
    }
}
