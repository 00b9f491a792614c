import Foundation
import GatewayAPI
import MPOSCore

/// Writes a ``GatewayAPI/Transaction`` as JSON by hand, byte for byte what
/// `GatewayJSON.makeEncoder()` writes (keys sorted, nil fields left out, slashes not
/// escaped, dates ISO 8601 to the second).
///
/// Every card authorization encodes its answer inside the serialized writer, because the
/// answer is stored with the idempotency key in the same transaction; `JSONEncoder` spent
/// about a fifth of the writer's time there. A test compares this writer with `JSONEncoder`
/// over filled, empty and awkward transactions, and fails when `Transaction` gains a field
/// this writer does not know.
enum TransactionJSON {
    /// The stored properties of `Transaction` this writer writes.
    static let fieldCount = 24

    /// The JSON of `t`.
    static func data(_ t: Transaction) -> Data {
        var w = JSONObjectWriter()
        w.string("acquirerMessage", t.acquirerMessage)
        w.integer("approvedAmount", t.approvedAmount)
        w.string("authorizationCode", t.authorizationCode)
        w.string("batchID", t.batchID)
        if let card = t.card {
            var c = JSONObjectWriter()
            c.string("cardholderName", card.cardholderName)
            c.integer("expiryMonth", card.expiryMonth.map(Int64.init))
            c.integer("expiryYear", card.expiryYear.map(Int64.init))
            c.string("maskedPAN", card.maskedPAN)
            c.string("scheme", card.scheme)
            w.object("card", c)
        }
        w.date("createdAt", t.createdAt)
        w.string("currency", t.currency.code)
        w.string("customerReference", t.customerReference)
        w.string("cvm", t.cvm?.rawValue)
        if let emv = t.emv {
            var e = JSONObjectWriter()
            e.string("aid", emv.aid)
            e.string("applicationCryptogram", emv.applicationCryptogram)
            e.string("applicationLabel", emv.applicationLabel)
            e.string("tsi", emv.tsi)
            e.string("tvr", emv.tvr)
            w.object("emv", e)
        }
        w.string("entryMode", t.entryMode?.rawValue)
        w.string("externalID", t.externalID)
        w.string("id", t.id.rawValue)
        w.string("issuerAuthenticationData", t.issuerAuthenticationData)
        w.string("issuerScripts", t.issuerScripts)
        w.string("kind", t.kind.rawValue)
        w.string("originalID", t.originalID?.rawValue)
        if let receipt = t.receipt {
            var r = JSONObjectWriter()
            r.integer("receiptNumber", Int64(receipt.receiptNumber))
            r.bool("signatureRequired", receipt.signatureRequired)
            r.string("terminalID", receipt.terminalID)
            w.object("receipt", r)
        }
        w.integer("requestedAmount", t.requestedAmount)
        w.string("responseCode", t.responseCode)
        w.string("statementDescriptor", t.statementDescriptor)
        w.string("status", t.status.rawValue)
        w.integer("tipAmount", t.tipAmount)
        w.integer("totalAmount", t.totalAmount)
        return Data(w.finished())
    }
}
