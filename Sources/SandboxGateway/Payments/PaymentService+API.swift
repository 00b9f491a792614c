import Foundation
import GRDB
import GatewayAPI
import MPOSCore

extension PaymentService {
    /// Closes the open batch and reports it with its totals per currency: sales, captures,
    /// cash and SEPA (tips included) against refunds.
    public func closeBatchSummary(merchant: String) async throws -> Batch {
        let batch = try await closeBatch(merchant: merchant)
        let batchID = batch.id!
        let totals = try await database.read { db -> [BatchTotal] in
            try db.fetchAll(sql: """
                    SELECT currency,
                      SUM(CASE WHEN kind IN ('sale','capture','cash','sepa') THEN 1 ELSE 0 END) AS sale_count,
                      SUM(CASE WHEN kind IN ('sale','capture','cash','sepa') THEN amount_captured + amount_tip ELSE 0 END) AS sale_amount,
                      SUM(CASE WHEN kind = 'refund' THEN 1 ELSE 0 END) AS refund_count,
                      SUM(CASE WHEN kind = 'refund' THEN amount_captured ELSE 0 END) AS refund_amount
                    FROM payment_transaction
                    WHERE batch_id = ? AND status IN ('approved','partiallyApproved','refunded')
                    GROUP BY currency ORDER BY currency
                    """, arguments: [batchID]
            ).compactMap { row -> BatchTotal? in
                guard let currency = Currency(code: row["currency"] as String) else { return nil }
                let sales: Int64 = row["sale_amount"]
                let refunds: Int64 = row["refund_amount"]
                return BatchTotal(
                    currency: currency, saleCount: row["sale_count"], saleAmount: sales,
                    refundCount: row["refund_count"], refundAmount: refunds, netAmount: sales - refunds)
            }
        }
        return Batch(
            id: String(batchID), openedAt: batch.openedAt, closedAt: batch.closedAt ?? now(),
            transactionCount: batch.transactionCount, totals: totals)
    }
}

extension LedgerTransaction {
    /// The transaction as the API reports it: masked card, EMV receipt values, amounts.
    public var apiTransaction: Transaction {
        let card: CardSummary? = maskedPan.map { masked in
            let expiry = CardSummary.expiryParts(yymm: expiry)
            return CardSummary(
                scheme: brand ?? "unknown", maskedPAN: masked, cardholderName: cardholderName,
                expiryMonth: expiry?.month, expiryYear: expiry?.year)
        }
        let emv: EMVSummary? = aid.map {
            EMVSummary(aid: $0, applicationLabel: applicationLabel, tvr: tvr, tsi: tsi)
        }
        return Transaction(
            id: TransactionID(rawValue: id)!, originalID: originalId.flatMap(TransactionID.init(rawValue:)),
            kind: kind, status: status,
            requestedAmount: amountRequested,
            approvedAmount: amountApproved, tipAmount: amountTip, totalAmount: amountApproved + amountTip,
            currency: currency, authorizationCode: authCode,
            responseCode: responseCode,
            issuerAuthenticationData: issuerAuthenticationData, acquirerMessage: acquirerMessage,
            batchID: batchId.map { String($0) }, card: card,
            entryMode: entryMode.flatMap(CardEntryMode.init(rawValue:)),
            cvm: cvm.flatMap(CardholderVerification.init(rawValue:)), emv: emv,
            customerReference: customerReference,
            externalID: externalId, statementDescriptor: descriptor, createdAt: createdAt,
            receipt: seq.map { ReceiptInfo(receiptNumber: Int($0), signatureRequired: signatureRequired) },
            cardholderName: maskedPan == nil ? cardholderName : nil)
    }

    /// Whether the merchant copy needs a signature line.
    var signatureRequired: Bool {
        cvm == CardholderVerification.signature.rawValue
            || cvm == CardholderVerification.pinAndSignature.rawValue
    }

    /// The data a receipt prints.
    func receiptData(merchant: MerchantInfo, lines: [ReceiptLine] = []) -> ReceiptData {
        let api = apiTransaction
        return ReceiptData(
            transactionID: api.id, receiptNumber: Int(seq ?? 0), merchantName: merchant.name,
            merchantAddress: merchant.address, merchantID: merchant.id, date: createdAt, kind: api.kind,
            status: api.status, lines: lines, taxes: ReceiptTax.summary(of: lines), tipAmount: amountTip,
            totalAmount: api.totalAmount, currency: api.currency,
            card: api.card, emv: api.emv, authorizationCode: authCode, entryMode: api.entryMode, cvm: api.cvm,
            signatureRequired: signatureRequired)
    }
}

/// A plain-text receipt for the outbox. It shows the masked card number only.
enum ReceiptText {
    static func render(_ receipt: ReceiptData) -> String {
        func money(_ amount: Int64) -> String {
            // A currency Money refuses is shown as the plain amount.
            (try? Money(amount: amount, currency: receipt.currency)).map { "\($0)" }
                ?? "\(amount) \(receipt.currency)"
        }
        var lines = [receipt.merchantName]
        if let address = receipt.merchantAddress { lines.append(address) }
        lines.append("Receipt \(receipt.receiptNumber)  \(ISO8601DateFormatter().string(from: receipt.date))")
        lines.append("\(receipt.kind.rawValue.uppercased())  \(receipt.status.rawValue.uppercased())")
        for line in receipt.lines {
            lines.append("\(line.quantity) x \(line.description)  \(money(line.total))")
        }
        for tax in receipt.taxes {
            lines.append(
                "Net \(tax.rateText): \(money(tax.netAmount))  Tax \(tax.rateText): \(money(tax.taxAmount))")
        }
        if receipt.tipAmount > 0 { lines.append("Tip: \(money(receipt.tipAmount))") }
        lines.append("Total: \(money(receipt.totalAmount))")
        if let card = receipt.card { lines.append("\(card.scheme.uppercased()) \(card.maskedPAN)") }
        if let emv = receipt.emv { lines.append("AID \(emv.aid) \(emv.applicationLabel ?? "")") }
        if let code = receipt.authorizationCode { lines.append("Auth code \(code)") }
        if receipt.signatureRequired { lines.append("Signature: ______________________") }
        lines.append("Transaction \(receipt.transactionID)")
        return lines.joined(separator: "\n")
    }
}
