import Foundation
import GRDB
import GatewayAPI
import MPOSCore
import SandboxCards

/// A card authorisation that passed the rules and the issuer's verification, waiting for its
/// write: ``record(_:)`` judges the reader's update deadlines, refuses a replayed cryptogram,
/// checks duplicates, asks the issuer's decision with the card's spend so far, and inserts the
/// ledger row, all inside the caller's transaction.
///
/// Made by ``PaymentService/prepareAuthorization(merchant:_:)``.
public struct PreparedAuthorization: Sendable {
    /// The row to insert, before the decision.
    let template: LedgerTransaction
    let merchant: String
    let kind: TransactionKind
    let time: Date
    let fingerprint: String
    let checkDuplicates: Bool
    let allowPartial: Bool
    /// The request's KSN and chip counter, checked against those seen (``ReplayGuard``).
    let counters: CryptogramCounters?
    /// Whether it is a sale the card approved offline, forwarded later: its counter may be
    /// below one the card sent online since, so only its KSN must be new.
    var forwardedOffline = false
    /// When the card approved a forwarded offline sale (the terminal's `offlineStoredAt`).
    var offlineStoredAt: Date?
    let decide: @Sendable (_ spentSoFar: Int64) -> IssuerAnswer
    /// The basket's receipt lines, stored with the row.
    var basketLines: [ReceiptLine] = []
    /// The reader the card was read on, if the request named it, and when the payment was
    /// taken (a forwarded offline sale's storage time), for ``TerminalRegistry``'s deadline rule.
    var reader: (device: PaymentReader, takenAt: Date)?
    /// The payment's own callback URL, posted once the row is recorded.
    public internal(set) var callbackURL: URL?

    /// Decides and inserts the ledger row in `db`'s current transaction, kept with
    /// `idempotencyKey`, the key of the request that made it (``LedgerAttempts``).
    ///
    /// A replayed cryptogram (``CryptogramReplay``) is declined and recorded whatever the
    /// request's other fields say, and leaves the counters as they were.
    ///
    /// - Returns: the inserted row and the merchant's enabled webhook, read in the same
    ///   transaction, where the events for the webhook and the payment's callback URL are
    ///   stored in the outbox (``WebhookOutbox``).
    /// - Throws: ``PaymentRuleViolation`` for a duplicate; ``GatewayError`` 4221 when the
    ///   reader is past an update's deadline and its grace period, and what else
    ///   ``TerminalRegistry`` refuses a reader for (4001, 4092); database errors.
    public func record(_ db: any SQLSession, idempotencyKey: String? = nil) throws -> (
        transaction: LedgerTransaction, webhook: LedgerWebhookConfig?
    ) {
        if let reader {
            try TerminalRegistry.admitPayment(
                merchant: merchant, reader: reader.device, takenAt: reader.takenAt, now: time, in: db)
        }
        var row = template
        row.idempotencyKey = idempotencyKey
        let replay =
            try counters.flatMap {
                try ReplayGuard.claim(db, fingerprint: fingerprint, counters: $0, inOrder: !forwardedOffline)
            }
        if replay == nil, checkDuplicates {
            try checkDuplicate(db, amount: row.amountRequested, currency: row.currency)
        }
        // After the claim, whose lock on the card's counter row orders the card's sales.
        let context = try AuthorizationContext.read(
            db, merchant: merchant, fingerprint: fingerprint, on: time)
        let answer = replay.map(ReplayGuard.declined) ?? decide(kind == .refund ? 0 : context.spent)
        PaymentService.apply(answer, to: &row, kind: kind, allowPartial: allowPartial)
        if kind == .refund { try AsynchronousRefunds.deferUnreferenced(db, &row) }
        if row.amountApproved > 0 {
            row.batchId =
                try context.openBatchID ?? PaymentService.openBatch(db, merchant: merchant, now: time)
        }
        try row.insertCached(db)
        if let offlineStoredAt {
            try OfflineForwards.record(
                db, transactionID: row.id, merchant: merchant, storedAt: offlineStoredAt, arrivedAt: time)
        }
        try LedgerBasket.insert(basketLines, transactionID: row.id, db)
        try WebhookOutbox.record(db, [row], merchant: merchant, config: context.webhook, at: time)
        if let callbackURL {
            try WebhookOutbox.recordCallback(db, row, to: callbackURL, config: context.webhook, at: time)
        }
        return (row, context.webhook)
    }

    /// Throws when the same card paid the same amount at this merchant within the window.
    ///
    /// One statement (cached by the session) reading the four columns the rule needs: it runs for every
    /// authorization (the duplicate check is on by default) inside the serialized writer, where
    /// compiling a query over every ledger column each time was most of the write's time.
    private func checkDuplicate(_ db: any SQLSession, amount: Int64, currency: Currency) throws {
        let since = time.addingTimeInterval(-PaymentRules.duplicateWindow)
        let recent = try db.fetchAll(
            sql: """
                SELECT amount_requested, currency, status, created_at FROM payment_transaction
                WHERE merchant_id = ? AND card_fingerprint = ? AND created_at >= ? AND amount_requested = ?
                """, arguments: [merchant, fingerprint, SQLiteTimestamp.string(from: since), amount]
        ).map { row in
            PaymentRules.RecentPayment(
                cardFingerprint: fingerprint, amount: row["amount_requested"], currency: row["currency"],
                createdAt: row["created_at"],
                status: try LedgerValueError.decode(row, "status") { FinancialStatus(rawValue: $0) })
        }
        try PaymentRules.checkDuplicate(
            fingerprint: fingerprint, amount: amount, currency: currency.code, now: time,
            enabled: true, recent: recent)
    }
}
