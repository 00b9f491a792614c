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
    public let database: any DatabaseReader
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
        database: any DatabaseReader, writer: any LedgerWriter, issuer: any PaymentIssuer,
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

    // MARK: Card payments

    /// Authorises a card-present EMV payment: a sale (authorise and capture), an authorisation
    /// or pre-authorisation, or an unreferenced refund.
    ///
    /// Declines are recorded and returned, not thrown; rule violations are thrown.
    public func authorize(merchant: String, _ command: CardPaymentCommand) async throws -> LedgerTransaction {
        let prepared = try prepareAuthorization(merchant: merchant, command)
        let inserted = try await writer.write { db in try prepared.record(db) }
        await didRecord(inserted.transaction, webhook: inserted.webhook)
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
        guard [.sale, .authorization, .preAuthorization, .refund].contains(command.kind) else {
            throw PaymentRuleViolation(
                .invalidField, "kind must be sale, authorization, preAuthorization or refund.")
        }
        try PaymentRules.validateAmount(command.amount)
        let currency = try PaymentRules.currency(code: command.currency)
        let descriptor = try PaymentRules.statementDescriptor(
            command.descriptor, suffix: command.descriptorSuffix)
        try PaymentRules.validateExternalID(command.externalID)
        let emv = try Self.emvFacts(command.emvData)
        let kind: TransactionKind =
            command.kind == .sale && command.captureMode == .authUntilCapture ? .authorization : command.kind
        let time = now()
        let verification = try issuer.verify(
            IssuerRequest(
                emvData: command.emvData, encryptedCardData: command.encryptedCardData, ksn: command.ksn,
                amount: command.amount, currency: currency, kind: kind, maskedPAN: command.maskedPAN),
            allowPartial: command.allowPartialApproval, now: time)
        let fingerprint = fingerprinter.fingerprint(verification.pan)

        var template = LedgerTransaction(
            id: Self.newTransactionID(at: time), merchantId: merchant, kind: kind, status: .declined,
            amount: command.amount,
            currency: currency, now: time)
        template.cardFingerprint = fingerprint
        template.maskedPan = verification.pan.masked
        template.brand = verification.brand
        template.expiry = verification.expiry
        template.cardholderName = verification.cardholderName ?? emv.cardholderName
        template.entryMode = command.entryMode?.rawValue
        template.cvm = command.cvm?.rawValue
        template.aid = emv.aid
        template.applicationLabel = emv.label
        template.tvr = emv.tvr
        template.tsi = emv.tsi
        template.customerReference = command.customerReference
        template.externalId = command.externalID
        template.descriptor = descriptor
        template.captureMode = kind == .sale ? command.captureMode.rawValue : nil
        template.allowPartial = command.allowPartialApproval
        return PreparedAuthorization(
            template: template, merchant: merchant, kind: kind, time: time, fingerprint: fingerprint,
            checkDuplicates: command.duplicateCheck && kind != .refund,
            allowPartial: command.allowPartialApproval, decide: verification.decide,
            basketLines: command.basketLines)
    }

    /// What follows an authorisation's commit: the log line and the webhook.
    public func didRecord(_ transaction: LedgerTransaction, webhook: LedgerWebhookConfig?) async {
        logger.info(
            "card payment recorded",
            metadata: [
                "transaction": "\(transaction.id)", "kind": "\(transaction.kind)",
                "status": "\(transaction.status)",
                "card": "\(transaction.maskedPan ?? "")",
            ])
        await webhooks?.notify([transaction], config: webhook)
    }

    /// Records the issuer's answer on `row`, applying the partial-approval rule.
    static func apply(
        _ answer: IssuerAnswer, to row: inout LedgerTransaction, kind: TransactionKind, allowPartial: Bool
    ) {
        let outcome =
            kind == .refund
            ? (answer.approved ? .approved(amount: row.amountRequested) : .declined)
            : PaymentRules.outcome(
                requested: row.amountRequested, issuerApproved: answer.approved,
                approvedAmount: answer.approvedAmount,
                allowPartial: allowPartial)
        row.responseCode = answer.responseCode
        row.acquirerMessage = answer.message
        row.issuerAuthenticationData = answer.issuerAuthenticationData.map { Hex.encode($0) }
        switch outcome {
        case .approved(let amount):
            row.status = FinancialStatus.approved.rawValue
            row.amountApproved = amount
        case .partiallyApproved(let amount):
            row.status = FinancialStatus.partiallyApproved.rawValue
            row.amountApproved = amount
        case .declined:
            row.status = FinancialStatus.declined.rawValue
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
    /// Reads the running total that triggers keep in `payment_card_spend`
    /// (``LedgerSchema/createCardSpend(_:)``), with a cached statement: every authorisation
    /// runs it inside the serialized write, and summing the card's history grew with it.
    static func spentSoFar(_ db: Database, fingerprint: String) throws -> Int64 {
        let statement = try db.cachedStatement(
            sql: "SELECT spent FROM payment_card_spend WHERE card_fingerprint = ?")
        return try Int64.fetchOne(statement, arguments: [fingerprint]) ?? 0
    }

    /// The same figure summed from the ledger itself, to check the running total against.
    static func spentSoFarFromLedger(_ db: Database, fingerprint: String) throws -> Int64 {
        try Int64.fetchOne(
            db,
            sql: """
                SELECT COALESCE(SUM(amount_approved + amount_tip - amount_refunded), 0) FROM payment_transaction
                WHERE card_fingerprint = ? AND kind IN ('sale', 'authorization', 'preAuthorization')
                  AND status IN ('approved', 'partiallyApproved', 'refunded')
                """, arguments: [fingerprint]) ?? 0
    }

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

    /// The merchant's open batch, opened now if there is none.
    static func openBatch(_ db: Database, merchant: String, now: Date) throws -> Int64 {
        let open = try db.cachedStatement(sql: "SELECT id FROM payment_batch WHERE merchant_id = ? AND status = 'open'")
        if let id = try Int64.fetchOne(open, arguments: [merchant]) {
            return id
        }
        var batch = LedgerBatch(
            id: nil, merchantId: merchant, status: "open", openedAt: now, closedAt: nil, transactionCount: 0,
            netAmount: 0)
        try batch.insert(db)
        return batch.id!
    }

    static func isBatchOpen(_ db: Database, _ id: Int64?) throws -> Bool {
        guard let id else { return false }
        return try String.fetchOne(db, sql: "SELECT status FROM payment_batch WHERE id = ?", arguments: [id])
            == "open"
    }

    static func fetchOriginal(_ db: Database, merchant: String, id: String) throws -> LedgerTransaction {
        guard
            let row = try LedgerTransaction.filter(Column("id") == id && Column("merchant_id") == merchant)
                .fetchOne(db)
        else { throw PaymentRuleViolation(.notFound, "No transaction \(id.prefix(64)) for this merchant.") }
        return row
    }

    static func summary(_ db: Database, _ row: LedgerTransaction) throws -> PaymentRules.Original {
        PaymentRules.Original(
            kind: row.transactionKind ?? .sale, status: row.financialStatus ?? .failed,
            approvedAmount: row.amountApproved,
            capturedAmount: row.amountCaptured, refundedAmount: row.amountRefunded,
            batchOpen: try isBatchOpen(db, row.batchId),
            tipAdjustable: row.captureMode == CaptureMode.tipAdjustment.rawValue
                || row.kind != TransactionKind.sale.rawValue)
    }

    /// A follow-up row (capture, refund, void, tip) copying the original's card facts.
    static func followUp(
        of original: LedgerTransaction, kind: TransactionKind, amount: Int64, now: Date
    ) throws -> LedgerTransaction {
        let currency = try PaymentRules.currency(code: original.currency)
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
        change: @escaping @Sendable (Database, inout LedgerTransaction, Date) throws -> LedgerTransaction
    ) async throws -> (followUp: LedgerTransaction, original: LedgerTransaction) {
        let time = now()
        let result = try await writer.write { db in
            var original = try Self.fetchOriginal(db, merchant: merchant, id: id)
            var row = try change(db, &original, time)
            original.updatedAt = time
            try original.update(db)
            try row.insert(db)
            return (row, original, try WebhookNotifier.config(db, merchant: merchant))
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
            row.status = FinancialStatus.processed.rawValue
            return row
        }
    }

    /// Voids (batch open) or reverses (any time) an approved sale, authorisation, cash payment or refund.
    public func void(merchant: String, id: String, reversal: Bool) async throws -> (
        followUp: LedgerTransaction, original: LedgerTransaction
    ) {
        try await followUp(merchant: merchant, id: id) { db, original, time in
            let kind = try PaymentRules.voidKind(original: try Self.summary(db, original), reversal: reversal)
            original.status = FinancialStatus.reversed.rawValue
            var row = try Self.followUp(of: original, kind: kind, amount: original.amountApproved, now: time)
            row.status = FinancialStatus.processed.rawValue
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
            if original.amountRefunded >= original.amountCaptured {
                original.status = FinancialStatus.refunded.rawValue
            }
            var row = try Self.followUp(of: original, kind: .refund, amount: amount, now: time)
            row.amountCaptured = amount
            row.batchId = try Self.openBatch(db, merchant: merchant, now: time)
            return row
        }
    }

    // MARK: Cash and SEPA

    /// Records a cash sale or cash refund, approved at once.
    public func cash(merchant: String, _ command: CashCommand) async throws -> LedgerTransaction {
        guard command.kind == .sale || command.kind == .refund else {
            throw PaymentRuleViolation(.invalidField, "kind must be sale or refund for cash.")
        }
        try PaymentRules.validateAmount(command.amount)
        let currency = try PaymentRules.currency(code: command.currency)
        try PaymentRules.validateExternalID(command.externalID)
        let time = now()
        var row = LedgerTransaction(
            id: Self.newTransactionID(at: time), merchantId: merchant, kind: command.kind == .sale ? .cash : .refund,
            status: .approved, amount: command.amount, currency: currency, now: time)
        row.amountApproved = command.amount
        row.amountCaptured = command.amount
        row.externalId = command.externalID
        row.customerReference = command.customerReference
        row.responseCode = "00"
        row.acquirerMessage = command.kind == .sale ? "Cash received" : "Cash refunded"
        let result = try await writer.write { [row] db in
            var row = row
            row.batchId = try Self.openBatch(db, merchant: merchant, now: time)
            try row.insert(db)
            try LedgerBasket.insert(command.basketLines, transactionID: row.id, db)
            return (row, try WebhookNotifier.config(db, merchant: merchant))
        }
        await webhooks?.notify([result.0], config: result.1)
        return result.0
    }

    /// Records a SEPA direct debit authorised with the card: the issuer opens the card data
    /// (the card identifies the account), no authorisation is asked, the mandate is recorded.
    public func sepa(merchant: String, _ command: SEPACommand) async throws -> LedgerTransaction {
        try PaymentRules.validateAmount(command.amount)
        let currency = try PaymentRules.currency(code: command.currency)
        guard currency == .eur else {
            throw PaymentRuleViolation(.unknownCurrency, "SEPA direct debits are in EUR.")
        }
        try PaymentRules.validateExternalID(command.externalID)
        if let mandate = command.mandateReference, !(1...35).contains(mandate.count) {
            throw PaymentRuleViolation(.invalidField, "mandateReference must be 1 to 35 characters.")
        }
        let emv = try Self.emvFacts(command.emvData)
        let time = now()
        let verification = try issuer.verify(
            IssuerRequest(
                emvData: command.emvData, encryptedCardData: command.encryptedCardData, ksn: command.ksn,
                amount: command.amount, currency: currency, kind: .sepa, maskedPAN: command.maskedPAN),
            allowPartial: false, now: time)
        var row = LedgerTransaction(
            id: Self.newTransactionID(at: time), merchantId: merchant, kind: .sepa, status: .approved,
            amount: command.amount,
            currency: currency, now: time)
        row.amountApproved = command.amount
        row.amountCaptured = command.amount
        row.cardFingerprint = fingerprinter.fingerprint(verification.pan)
        row.maskedPan = verification.pan.masked
        row.brand = verification.brand
        row.expiry = verification.expiry
        row.cardholderName = verification.cardholderName ?? emv.cardholderName
        row.entryMode = command.entryMode.rawValue
        row.aid = emv.aid
        row.applicationLabel = emv.label
        row.externalId = command.externalID
        row.customerReference = command.customerReference
        row.responseCode = "00"
        row.acquirerMessage = "Mandate accepted"
        let mandate = LedgerSEPA(
            transactionId: row.id,
            mandateReference: command.mandateReference ?? "MNDT-"
                + row.id.dropFirst(4).prefix(16).uppercased(),
            signedAt: time)
        let result = try await writer.write { [row] db in
            var row = row
            row.batchId = try Self.openBatch(db, merchant: merchant, now: time)
            try row.insert(db)
            try mandate.insert(db)
            try LedgerBasket.insert(command.basketLines, transactionID: row.id, db)
            return (row, try WebhookNotifier.config(db, merchant: merchant))
        }
        await webhooks?.notify([result.0], config: result.1)
        return result.0
    }

    // MARK: Reads, batches, receipts

    /// One transaction of the merchant.
    public func transaction(merchant: String, id: String) async throws -> LedgerTransaction {
        try await database.read { db in try Self.fetchOriginal(db, merchant: merchant, id: id) }
    }

    /// A transaction of `merchant` with its basket lines, for its receipt.
    public func receiptRecord(merchant: String, id: String) async throws -> (LedgerTransaction, [ReceiptLine]) {
        try await database.read { db in
            let row = try Self.fetchOriginal(db, merchant: merchant, id: id)
            return (row, try LedgerBasket.lines(transactionID: row.id, db))
        }
    }

    /// The follow-ups of a transaction, oldest first.
    public func followUps(merchant: String, id: String) async throws -> [LedgerTransaction] {
        try await database.read { db in
            try LedgerTransaction.filter(Column("merchant_id") == merchant && Column("original_id") == id)
                .order(Column("seq")).fetchAll(db)
        }
    }

    /// Closes the merchant's open batch: counts its transactions and nets captured amounts,
    /// tips and refunds. Tips can no longer change and voids become reversals. Returns the
    /// closed batch, or throws ``PaymentRuleViolation/Reason/conflict`` when none is open.
    public func closeBatch(merchant: String) async throws -> LedgerBatch {
        let time = now()
        return try await writer.write { db in
            guard
                var batch = try LedgerBatch.filter(
                    Column("merchant_id") == merchant && Column("status") == "open"
                )
                .fetchOne(db)
            else { throw PaymentRuleViolation(.conflict, "There is no open batch to close.") }
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) AS n,
                      COALESCE(SUM(CASE WHEN kind = 'refund' THEN -amount_captured
                                        WHEN kind IN ('sale','capture','cash','sepa') THEN amount_captured + amount_tip
                                        ELSE 0 END), 0) AS net
                    FROM payment_transaction
                    WHERE batch_id = ? AND status IN ('approved','partiallyApproved','refunded')
                    """, arguments: [batch.id])!
            batch.transactionCount = row["n"]
            batch.netAmount = row["net"]
            batch.status = "closed"
            batch.closedAt = time
            try batch.update(db)
            return batch
        }
    }

    static func isEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return text.count <= 254 && parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".")
            && !parts[1].hasPrefix(".") && !parts[1].hasSuffix(".") && !text.contains(where: \.isWhitespace)
    }

    static func isPhone(_ text: String) -> Bool {
        let digits = text.filter(\.isNumber)
        return (6...15).contains(digits.count)
            && text.allSatisfy {
                $0.isNumber || $0 == "+" || $0 == " " || $0 == "-" || $0 == "(" || $0 == ")"
            }
    }
}
