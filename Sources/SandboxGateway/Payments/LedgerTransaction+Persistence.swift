import Foundation
import GRDB

extension LedgerTransaction {
    /// The columns written on insert and update, by hand rather than through `Encodable` with
    /// snake_case conversion: every authorisation inserts one row inside the serialized
    /// writer, and the Codable path (a key conversion per column per row) was most of its
    /// cost. The names are those ``databaseColumnDecodingStrategy`` reads back; a test
    /// round-trips every field.
    public func encode(to container: inout PersistenceContainer) throws {
        container["seq"] = seq
        container["id"] = id
        container["merchant_id"] = merchantId
        container["kind"] = kind
        container["status"] = status
        container["original_id"] = originalId
        container["amount_requested"] = amountRequested
        container["amount_approved"] = amountApproved
        container["amount_captured"] = amountCaptured
        container["amount_refunded"] = amountRefunded
        container["amount_tip"] = amountTip
        container["amount_major"] = amountMajor
        container["currency"] = currency
        container["response_code"] = responseCode
        container["auth_code"] = authCode
        container["acquirer_message"] = acquirerMessage
        container["batch_id"] = batchId
        container["card_fingerprint"] = cardFingerprint
        container["masked_pan"] = maskedPan
        container["brand"] = brand
        container["expiry"] = expiry
        container["cardholder_name"] = cardholderName
        container["entry_mode"] = entryMode
        container["cvm"] = cvm
        container["aid"] = aid
        container["application_label"] = applicationLabel
        container["tvr"] = tvr
        container["tsi"] = tsi
        container["issuer_authentication_data"] = issuerAuthenticationData
        container["customer_reference"] = customerReference
        container["external_id"] = externalId
        container["descriptor"] = descriptor
        container["capture_mode"] = captureMode
        container["allow_partial"] = allowPartial
        container["created_at"] = createdAt
        container["updated_at"] = updatedAt
    }
}
