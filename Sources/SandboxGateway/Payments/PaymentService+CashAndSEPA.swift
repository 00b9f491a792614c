import EMV
import Foundation
import GRDB
import GatewayAPI
import Logging
import MPOSCore

/// Payments that involve no card authorisation: cash, and SEPA direct debits identified by a card.
extension PaymentService {
    /// Records a cash sale or cash refund, approved at once, kept with `idempotencyKey`, the
    /// request's key (``LedgerAttempts``).
    public func cash(
        merchant: String, _ command: CashCommand, idempotencyKey: String? = nil
    ) async throws -> LedgerTransaction {
        let request = command.request
        guard request.kind == .sale || request.kind == .refund else {
            throw PaymentRuleViolation(.invalidField, "kind must be sale or refund for cash.")
        }
        try PaymentRules.validateAmount(request.amount)
        let currency = try PaymentRules.currency(code: request.currency.code)
        try PaymentRules.validateExternalID(request.externalID)
        try PaymentRules.validateCardholderName(request.cardholderName)
        let time = now()
        var row = LedgerTransaction(
            id: Self.newTransactionID(at: time), merchantId: merchant,
            kind: request.kind == .sale ? .cash : .refund,
            status: .approved, amount: request.amount, currency: currency, now: time)
        row.amountApproved = request.amount
        row.amountCaptured = request.amount
        row.externalId = request.externalID
        row.customerReference = request.customerReference
        row.cardholderName = request.cardholderName
        row.responseCode = "00"
        row.acquirerMessage = request.kind == .sale ? "Cash received" : "Cash refunded"
        row.idempotencyKey = idempotencyKey
        let result = try await writer.write { [row] db in
            var row = row
            row.batchId = try Self.openBatch(db, merchant: merchant, now: time)
            try row.insertCached(db)
            try LedgerBasket.insert(command.basketLines, transactionID: row.id, db)
            return (row, try WebhookOutbox.record(db, [row], merchant: merchant, at: time))
        }
        await webhooks?.notify([result.0], config: result.1)
        return result.0
    }

    /// Records a SEPA direct debit authorised with the card: the issuer opens the card data
    /// (the card identifies the account), no authorisation is asked, the mandate is recorded.
    /// A reader named in the request is judged by its update deadlines as for a card payment
    /// (``TerminalRegistry``; 4221 when it is past one). The row keeps `idempotencyKey`.
    public func sepa(
        merchant: String, _ command: SEPACommand, idempotencyKey: String? = nil
    ) async throws -> LedgerTransaction {
        let request = command.request
        try PaymentRules.validateAmount(request.amount)
        let currency = try PaymentRules.currency(code: request.currency.code)
        guard currency == .eur else {
            throw PaymentRuleViolation(.unknownCurrency, "SEPA direct debits are in EUR.")
        }
        try PaymentRules.validateExternalID(request.externalID)
        if let mandate = request.mandateReference, !(1...35).contains(mandate.unicodeScalars.count) {
            throw PaymentRuleViolation(.invalidField, "mandateReference must be 1 to 35 characters.")
        }
        let emv = try Self.emvFacts(command.emvData)
        let time = now()
        let verification = try issuer.verify(
            IssuerRequest(
                emvData: command.emvData, encryptedCardData: command.encryptedCardData, ksn: command.ksn,
                amount: request.amount, currency: currency, kind: .sepa, maskedPAN: request.maskedPAN),
            allowPartial: false, now: time)
        var row = LedgerTransaction(
            id: Self.newTransactionID(at: time), merchantId: merchant, kind: .sepa, status: .approved,
            amount: request.amount,
            currency: currency, now: time)
        row.amountApproved = request.amount
        row.amountCaptured = request.amount
        row.cardFingerprint = fingerprinter.fingerprint(verification.pan)
        row.maskedPan = verification.pan.masked
        row.brand = verification.brand
        row.expiry = verification.expiry
        row.cardholderName = verification.cardholderName ?? emv.cardholderName
        row.entryMode = request.entryMode.rawValue
        row.aid = emv.aid
        row.applicationLabel = emv.label
        row.externalId = request.externalID
        row.customerReference = request.customerReference
        row.responseCode = "00"
        row.acquirerMessage = "Mandate accepted"
        row.idempotencyKey = idempotencyKey
        let mandate = LedgerSEPA(
            transactionId: row.id,
            mandateReference: request.mandateReference ?? "MNDT-"
                + row.id.dropFirst(4).prefix(16).uppercased(),
            signedAt: time)
        let result = try await writer.write { [row] db in
            if let reader = request.reader {
                try TerminalRegistry.admitPayment(
                    merchant: merchant, reader: reader, takenAt: time, now: time, in: db)
            }
            var row = row
            row.batchId = try Self.openBatch(db, merchant: merchant, now: time)
            try row.insertCached(db)
            try db.insert(mandate)
            try LedgerBasket.insert(command.basketLines, transactionID: row.id, db)
            return (row, try WebhookOutbox.record(db, [row], merchant: merchant, at: time))
        }
        await webhooks?.notify([result.0], config: result.1)
        return result.0
    }
}
