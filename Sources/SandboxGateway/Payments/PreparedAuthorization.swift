import Foundation
import GRDB
import GatewayAPI
import MPOSCore

/// A card authorisation that passed the rules and the issuer's verification, waiting for its
/// write: ``record(_:)`` checks duplicates, asks the issuer's decision with the card's spend
/// so far, and inserts the ledger row, all inside the caller's transaction.
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
    let decide: @Sendable (_ spentSoFar: Int64) -> IssuerAnswer
    /// The basket's receipt lines, stored with the row.
    var basketLines: [ReceiptLine] = []

    /// Decides and inserts the ledger row in `db`'s current transaction.
    ///
    /// - Returns: the inserted row and the merchant's enabled webhook, read in the same
    ///   transaction.
    /// - Throws: ``PaymentRuleViolation`` for a duplicate; database errors.
    public func record(_ db: Database) throws -> (
        transaction: LedgerTransaction, webhook: LedgerWebhookConfig?
    ) {
        var row = template
        if checkDuplicates {
            let since = time.addingTimeInterval(-PaymentRules.duplicateWindow)
            let recent =
                try LedgerTransaction
                .filter(
                    Column("merchant_id") == merchant && Column("card_fingerprint") == fingerprint
                        && Column("created_at") >= SQLiteTimestamp.string(from: since)
                        && Column("amount_requested") == row.amountRequested
                )
                .fetchAll(db)
                .map {
                    PaymentRules.RecentPayment(
                        cardFingerprint: $0.cardFingerprint ?? "", amount: $0.amountRequested,
                        currency: $0.currency,
                        createdAt: $0.createdAt, status: $0.financialStatus ?? .declined)
                }
            try PaymentRules.checkDuplicate(
                fingerprint: fingerprint, amount: row.amountRequested, currency: row.currency, now: time,
                enabled: true, recent: recent)
        }
        let spent = kind == .refund ? 0 : try PaymentService.spentSoFar(db, fingerprint: fingerprint, on: time)
        let answer = decide(spent)
        PaymentService.apply(answer, to: &row, kind: kind, allowPartial: allowPartial)
        if row.amountApproved > 0 {
            row.batchId = try PaymentService.openBatch(db, merchant: merchant, now: time)
        }
        try row.insertCached(db)
        try LedgerBasket.insert(basketLines, transactionID: row.id, db)
        return (row, try WebhookNotifier.config(db, merchant: merchant))
    }
}
