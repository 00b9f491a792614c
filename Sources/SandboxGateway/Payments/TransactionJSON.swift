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
        var w = ObjectWriter()
        w.string("acquirerMessage", t.acquirerMessage)
        w.integer("approvedAmount", t.approvedAmount)
        w.string("authorizationCode", t.authorizationCode)
        w.string("batchID", t.batchID)
        if let card = t.card {
            var c = ObjectWriter()
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
            var e = ObjectWriter()
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
            var r = ObjectWriter()
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

    /// One JSON object, members appended in the caller's (sorted) order; nil values skipped.
    struct ObjectWriter {
        private var bytes: [UInt8] = [UInt8(ascii: "{")]

        init() { bytes.reserveCapacity(512) }

        mutating func string(_ key: StaticString, _ value: String?) {
            guard let value else { return }
            member(key)
            Self.appendString(value, to: &bytes)
        }

        mutating func integer(_ key: StaticString, _ value: Int64?) {
            guard let value else { return }
            member(key)
            bytes.append(contentsOf: String(value).utf8)
        }

        mutating func bool(_ key: StaticString, _ value: Bool) {
            member(key)
            bytes.append(contentsOf: (value ? "true" : "false").utf8)
        }

        /// ISO 8601 in UTC to the second, as `JSONEncoder.DateEncodingStrategy.iso8601`.
        mutating func date(_ key: StaticString, _ value: Date) {
            member(key)
            let t = SQLiteTimestamp.UTCTime(value, roundingToNearestMillisecond: false)
            bytes.append(UInt8(ascii: "\""))
            t.appendDate(to: &bytes)
            bytes.append(UInt8(ascii: "T"))
            t.appendTime(to: &bytes)
            bytes.append(contentsOf: "Z\"".utf8)
        }

        mutating func object(_ key: StaticString, _ value: ObjectWriter) {
            member(key)
            bytes.append(contentsOf: value.finished())
        }

        func finished() -> [UInt8] { bytes + [UInt8(ascii: "}")] }

        private mutating func member(_ key: StaticString) {
            if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\""))
            key.withUTF8Buffer { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: "\":".utf8)
        }

        /// A JSON string: quote and backslash escaped, control characters as short escapes
        /// or `\u00XX`, everything else (slashes and non-ASCII included) as it is.
        private static func appendString(_ value: String, to bytes: inout [UInt8]) {
            bytes.append(UInt8(ascii: "\""))
            for byte in value.utf8 {
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: "\\\"".utf8)
                case UInt8(ascii: "\\"): bytes.append(contentsOf: "\\\\".utf8)
                case 0x08: bytes.append(contentsOf: "\\b".utf8)
                case 0x0C: bytes.append(contentsOf: "\\f".utf8)
                case 0x0A: bytes.append(contentsOf: "\\n".utf8)
                case 0x0D: bytes.append(contentsOf: "\\r".utf8)
                case 0x09: bytes.append(contentsOf: "\\t".utf8)
                case 0..<0x20:
                    let hex = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: "\\u00".utf8)
                    bytes.append(hex[Int(byte >> 4)])
                    bytes.append(hex[Int(byte & 0x0F)])
                default: bytes.append(byte)
                }
            }
            bytes.append(UInt8(ascii: "\""))
        }
    }
}
