import EMV
import Foundation
import GRDB
import GatewayAPI
import Logging
import MPOSCore

/// Card payments: the rules, the issuer's verification and the decision recorded in one write.
extension PaymentService {
    /// Authorises a card-present EMV payment: a sale (authorise and capture), an authorisation
    /// or pre-authorisation, or an unreferenced refund.
    ///
    /// Declines are recorded and returned, not thrown; rule violations are thrown.
    public func authorize(merchant: String, _ command: CardPaymentCommand) async throws -> LedgerTransaction {
        let prepared = try prepareAuthorization(merchant: merchant, command)
        // The card's replay counter and spend are rows other sales of the card change too.
        let inserted = try await writer.write(lockOrder: prepared.fingerprint) { db in try prepared.record(db) }
        await didRecord(inserted.transaction, webhook: inserted.webhook, callback: prepared.callbackURL)
        return inserted.transaction
    }

    /// The part of an authorisation that needs no database: the request's rules, the EMV
    /// facts, the issuer's verification (DUKPT envelope, ARQC) and the card fingerprint. Runs
    /// before the write, so the serialized writer only decides and inserts.
    ///
    /// - Throws: ``PaymentRuleViolation`` for a request the rules or the issuer refuse.
    public func prepareAuthorization(merchant: String, _ command: CardPaymentCommand) throws
        -> PreparedAuthorization
    {
        let request = command.request
        let payment = request.parameters
        try PaymentRules.validateAmount(payment.amount)
        let currency = try PaymentRules.currency(code: payment.currency.code)
        let descriptor = try PaymentRules.statementDescriptor(
            payment.statementDescriptor, suffix: payment.statementDescriptorSuffix)
        try PaymentRules.validateExternalID(payment.externalID)
        let callback = try PaymentRules.callbackURL(payment.callbackURL)
        let emv = try Self.emvFacts(command.emvData)
        try Self.checkOfflineForward(command)
        let kind: TransactionKind =
            command.kind == .sale && payment.captureMode == .authUntilCapture ? .authorization : command.kind
        // The card authorised the amount plus the cardholder's tip: the cryptogram is checked
        // against the total.
        let tip = try PaymentRules.readerTip(request.tipAmount, amount: payment.amount, kind: kind)
        let time = now()
        let verification = try issuer.verify(
            IssuerRequest(
                emvData: command.emvData, encryptedCardData: command.encryptedCardData, ksn: command.ksn,
                amount: payment.amount + tip, currency: currency, kind: kind, maskedPAN: request.maskedPAN),
            allowPartial: payment.allowPartialApproval, now: time)
        let fingerprint = fingerprinter.fingerprint(verification.pan)

        var template = LedgerTransaction(
            id: Self.newTransactionID(at: time), merchantId: merchant, kind: kind, status: .declined,
            amount: payment.amount,
            currency: currency, now: time)
        template.amountTip = tip
        template.cardFingerprint = fingerprint
        template.maskedPan = verification.pan.masked
        template.brand = verification.brand
        template.expiry = verification.expiry
        template.cardholderName = verification.cardholderName ?? emv.cardholderName
        template.entryMode = request.entryMode.rawValue
        template.cvm = request.cvm.rawValue
        template.aid = emv.aid
        template.applicationLabel = emv.label
        template.tvr = emv.tvr
        template.tsi = emv.tsi
        template.customerReference = payment.customerReference
        template.externalId = payment.externalID
        template.descriptor = descriptor
        template.captureMode = kind == .sale ? payment.captureMode.rawValue : nil
        template.allowPartial = payment.allowPartialApproval
        var prepared = PreparedAuthorization(
            template: template, merchant: merchant, kind: kind, time: time, fingerprint: fingerprint,
            checkDuplicates: payment.duplicateCheck && kind != .refund,
            allowPartial: payment.allowPartialApproval, counters: verification.counters,
            decide: verification.decide,
            basketLines: command.basketLines,
            reader: request.reader.map { (device: $0, takenAt: request.offlineStoredAt ?? time) })
        prepared.forwardedOffline = request.offlineStoredAt != nil
        prepared.offlineStoredAt = request.offlineStoredAt
        prepared.callbackURL = callback
        return prepared
    }

    /// What follows an authorisation's commit: the log line, the webhook, and the post to the
    /// payment's own callback URL when it named one.
    public func didRecord(
        _ transaction: LedgerTransaction, webhook: LedgerWebhookConfig?, callback: URL? = nil
    ) async {
        logger.info(
            "card payment recorded",
            metadata: [
                "transaction": "\(transaction.id)", "kind": "\(transaction.kind)",
                "status": "\(transaction.status)",
                "card": "\(transaction.maskedPan ?? "")",
            ])
        await webhooks?.notify([transaction], config: webhook)
        if let callback { await webhooks?.callback(transaction, to: callback, config: webhook) }
    }

    /// Records the issuer's answer on `row`, applying the partial-approval rule.
    ///
    /// The issuer answers for the total the card authorised, the amount plus the reader's tip
    /// (``LedgerTransaction/amountTip``); as a tip adjustment does, the row keeps the two
    /// apart: `amount_approved` the amount, `amount_tip` the tip. A partial approval covers
    /// the amount first, the tip with what is left; a decline keeps no tip.
    static func apply(
        _ answer: IssuerAnswer, to row: inout LedgerTransaction, kind: TransactionKind, allowPartial: Bool
    ) {
        let tip = row.amountTip
        let outcome =
            kind == .refund
            ? (answer.approved ? .approved(amount: row.amountRequested) : .declined)
            : PaymentRules.outcome(
                requested: row.amountRequested + tip, issuerApproved: answer.approved,
                approvedAmount: answer.approvedAmount,
                allowPartial: allowPartial)
        row.responseCode = answer.responseCode
        row.acquirerMessage = answer.message
        row.issuerAuthenticationData = answer.issuerAuthenticationData.map { Hex.encode($0) }
        switch outcome {
        case .approved(let amount):
            row.status = .approved
            row.amountApproved = amount - tip
        case .partiallyApproved(let amount):
            row.status = .partiallyApproved
            row.amountApproved = min(amount, row.amountRequested)
            row.amountTip = amount - row.amountApproved
        case .declined:
            row.status = .declined
            row.amountTip = 0
            if answer.approved {
                // A partial approval the request did not allow.
                row.responseCode = "51"
                row.acquirerMessage = "Partial approval not allowed; declined."
            }
        }
        if row.amountApproved > 0 {
            row.authCode = answer.authorizationCode
            if kind == .sale || kind == .refund { row.amountCaptured = row.amountApproved }
        }
    }

    /// What a card has spent: approved sales and authorisations not reversed, less refunds.
    ///
    /// The card's spend on the UTC day of `date`, as the triggers keep it in
    /// `payment_card_spend` (spend counts per day: docs/test-cards.md).
    static func spentSoFar(_ db: any SQLSession, fingerprint: String, on date: Date) throws -> Int64 {
        try db.fetchValue(
            Int64.self, sql: "SELECT spent FROM payment_card_spend WHERE card_fingerprint = ? AND day = ?",
            arguments: [fingerprint, utcDay(date)]) ?? 0
    }

    /// The same figure summed from the ledger itself, to check the running total against.
    static func spentSoFarFromLedger(_ db: any SQLSession, fingerprint: String, on date: Date) throws -> Int64 {
        try db.fetchValue(Int64.self, sql: """
                SELECT COALESCE(SUM(amount_approved + amount_tip - amount_refunded), 0) AS spent FROM payment_transaction
                WHERE card_fingerprint = ? AND kind IN ('sale', 'authorization', 'preAuthorization')
                  AND status IN ('approved', 'partiallyApproved', 'refunded') AND substr(created_at, 1, 10) = ?
                """, arguments: [fingerprint, utcDay(date)]) ?? 0
    }

    /// `YYYY-MM-DD` of `date` in UTC, as the ledger's timestamps begin.
    static func utcDay(_ date: Date) -> String { String(SQLiteTimestamp.string(from: date).prefix(10)) }

    /// What the gateway reads from the EMV data itself.
    struct EMVFacts {
        var aid: String?
        var label: String?
        var tvr: String?
        var tsi: String?
        var cardholderName: String?
    }

    /// Reads the receipt facts from the EMV data; the issuer checks amount, currency and cryptogram.
    static func emvFacts(_ bytes: [UInt8]) throws(PaymentRuleViolation) -> EMVFacts {
        let tree: TLVTree
        do { tree = try TLVTree(decoding: bytes) } catch {
            throw PaymentRuleViolation(.cardDataRejected, "emvData is not valid BER-TLV.")
        }
        func hex(_ tag: EMVTag) -> String? { tree[tag].map { Hex.encode($0) } }
        func text(_ tag: EMVTag) -> String? {
            tree[tag].flatMap { ASCIIText.trimmedString($0) }
        }
        return EMVFacts(
            aid: hex(0x4F) ?? hex(0x84) ?? hex(0x9F06), label: text(0x50), tvr: hex(0x95), tsi: hex(0x9B),
            cardholderName: text(0x5F20))
    }
}
