import Foundation
import GatewayAPI
import MPOSCore

/// Encodes the callback body of a transaction as the contract's ``GatewayAPI/WebhookPayload``.
enum WebhookBody {
    /// The Accept callback fields as JSON with ``GatewayJSON`` conventions; the card number
    /// is the masked one.
    static func encode(_ row: LedgerTransaction, merchantName: String) throws -> [UInt8] {
        let status = row.status
        let failed = [.declined, .failed, .cancelled].contains(status)
        let payload = WebhookPayload(
            uniqueID: row.id, merchantID: row.merchantId, merchantName: merchantName,
            amount: row.amountApproved > 0 ? row.amountApproved + row.amountTip : row.amountRequested,
            currency: row.currency, createdAt: row.createdAt, cardBrand: row.brand,
            cardNumber: row.maskedPan, cardholderName: row.cardholderName, state: status,
            errorCode: failed ? row.responseCode : nil, errorMessage: failed ? row.acquirerMessage : nil,
            aidLabel: row.applicationLabel, aid: row.aid)
        return Array(try GatewayJSON.encoder.encode(payload))
    }
}
