import Foundation

/// Encodes the callback body of a transaction.
enum WebhookBody {
    /// The Accept callback fields as JSON, with the masked card number.
    static func encode(_ row: LedgerTransaction, merchantName: String) throws -> [UInt8] {
        let approved = ["approved", "partiallyApproved", "processed"].contains(row.status)
        let object: [String: Any] = [
            "uniqueID": row.id, "merchantID": row.merchantId, "merchantName": merchantName,
            "amount": row.amountApproved > 0 ? row.amountApproved : row.amountRequested, "currency": row.currency,
            "createdAt": ISO8601DateFormatter().string(from: row.createdAt), "cardBrand": row.brand ?? NSNull(),
            "cardNumber": row.maskedPan ?? NSNull(), "cardholderName": row.cardholderName ?? NSNull(),
            "state": row.status, "errorCode": approved ? NSNull() : (row.responseCode ?? NSNull()) as Any,
            "errorMessage": approved ? NSNull() : (row.acquirerMessage ?? NSNull()) as Any,
            "aidLabel": row.applicationLabel ?? NSNull(), "aid": row.aid ?? NSNull(),
        ]
        return Array(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }
}
