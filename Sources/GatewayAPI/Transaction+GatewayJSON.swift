#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MPOSCore

extension Transaction {
    /// The stored properties of `Transaction` that ``decodeGatewayJSON(_:)`` reads by hand; a
    /// test fails when the type gains one this count does not know.
    static let handDecodedFieldCount = 24

    /// Decodes a transaction as `GatewayJSON.makeDecoder()` does, with the same result or the
    /// same error, reading the usual answer by hand.
    ///
    /// Every payment's answer is a transaction, decoded on the payment's path; `JSONDecoder`
    /// (a keyed container and a boxed lookup per field) cost about 3 % of a whole sale's CPU,
    /// SDK, gateway and emulated reader together. Any text the hand reader does not vouch
    /// for (see ``JSONBytesReader``) and any value it cannot place goes to `JSONDecoder`,
    /// whose answer stands; tests compare the two over written, reordered and damaged texts.
    public static func decodeGatewayJSON(_ data: Data) throws -> Transaction {
        if let transaction = try? handDecoded(data) { return transaction }
        return try GatewayJSON.makeDecoder().decode(Transaction.self, from: data)
    }

    static func handDecoded(_ data: Data) throws(JSONBytesReader.Surprise) -> Transaction {
        typealias Surprise = JSONBytesReader.Surprise
        var reader = JSONBytesReader(data)
        var id: TransactionID?, originalID: TransactionID?, kind: TransactionKind?, status: FinancialStatus?
        var requestedAmount: Int64?, approvedAmount: Int64?, tipAmount: Int64?, totalAmount: Int64?
        var currency: Currency?, createdAt: Date?
        var authorizationCode: String?, responseCode: String?, issuerAuthenticationData: String?
        var issuerScripts: String?, acquirerMessage: String?, batchID: String?, customerReference: String?
        var externalID: String?, statementDescriptor: String?
        var card: CardSummary?, entryMode: CardEntryMode?, cvm: CardholderVerification?, emv: EMVSummary?
        var receipt: ReceiptInfo?

        func required<T>(_ value: T?) throws(Surprise) -> T {
            guard let value else { throw Surprise() }
            return value
        }
        try reader.object { reader, key throws(Surprise) in
            switch key {
            case "id": id = try required(TransactionID(rawValue: try reader.string()))
            case "originalID":
                originalID = reader.null() ? nil : try required(TransactionID(rawValue: try reader.string()))
            case "kind": kind = try reader.named(TransactionKind.self)
            case "status": status = try reader.named(FinancialStatus.self)
            case "requestedAmount": requestedAmount = try reader.integer()
            case "approvedAmount": approvedAmount = try reader.integer()
            case "tipAmount": tipAmount = try reader.integer()
            case "totalAmount": totalAmount = try reader.integer()
            case "currency": currency = try required(Currency(code: try reader.string()))
            case "createdAt": createdAt = try reader.date()
            case "authorizationCode": authorizationCode = try reader.optionalString()
            case "responseCode": responseCode = try reader.optionalString()
            case "issuerAuthenticationData": issuerAuthenticationData = try reader.optionalString()
            case "issuerScripts": issuerScripts = try reader.optionalString()
            case "acquirerMessage": acquirerMessage = try reader.optionalString()
            case "batchID": batchID = try reader.optionalString()
            case "customerReference": customerReference = try reader.optionalString()
            case "externalID": externalID = try reader.optionalString()
            case "statementDescriptor": statementDescriptor = try reader.optionalString()
            case "entryMode": entryMode = try reader.optionalNamed(CardEntryMode.self)
            case "cvm": cvm = try reader.optionalNamed(CardholderVerification.self)
            case "card": card = reader.null() ? nil : try CardSummary.handDecoded(&reader)
            case "emv": emv = reader.null() ? nil : try EMVSummary.handDecoded(&reader)
            case "receipt": receipt = reader.null() ? nil : try ReceiptInfo.handDecoded(&reader)
            default: try reader.skip()
            }
        }
        try reader.finish()
        return Transaction(
            id: try required(id), originalID: originalID, kind: try required(kind), status: try required(status),
            requestedAmount: try required(requestedAmount), approvedAmount: try required(approvedAmount),
            tipAmount: try required(tipAmount), totalAmount: try required(totalAmount),
            currency: try required(currency), authorizationCode: authorizationCode, responseCode: responseCode,
            issuerAuthenticationData: issuerAuthenticationData, issuerScripts: issuerScripts,
            acquirerMessage: acquirerMessage, batchID: batchID, card: card, entryMode: entryMode, cvm: cvm, emv: emv,
            customerReference: customerReference, externalID: externalID, statementDescriptor: statementDescriptor,
            createdAt: try required(createdAt), receipt: receipt)
    }
}

extension CardSummary {
    static func handDecoded(_ reader: inout JSONBytesReader) throws(JSONBytesReader.Surprise) -> CardSummary {
        var scheme: String?, maskedPAN: String?, cardholderName: String?
        var expiryMonth: Int?, expiryYear: Int?
        try reader.object { reader, key throws(JSONBytesReader.Surprise) in
            switch key {
            case "scheme": scheme = try reader.string()
            case "maskedPAN": maskedPAN = try reader.string()
            case "cardholderName": cardholderName = try reader.optionalString()
            case "expiryMonth": expiryMonth = reader.null() ? nil : Int(try reader.integer())
            case "expiryYear": expiryYear = reader.null() ? nil : Int(try reader.integer())
            default: try reader.skip()
            }
        }
        guard let scheme, let maskedPAN else { throw JSONBytesReader.Surprise() }
        return CardSummary(
            scheme: scheme, maskedPAN: maskedPAN, cardholderName: cardholderName, expiryMonth: expiryMonth,
            expiryYear: expiryYear)
    }
}

extension EMVSummary {
    static func handDecoded(_ reader: inout JSONBytesReader) throws(JSONBytesReader.Surprise) -> EMVSummary {
        var aid: String?, applicationLabel: String?, tvr: String?, tsi: String?, applicationCryptogram: String?
        try reader.object { reader, key throws(JSONBytesReader.Surprise) in
            switch key {
            case "aid": aid = try reader.string()
            case "applicationLabel": applicationLabel = try reader.optionalString()
            case "tvr": tvr = try reader.optionalString()
            case "tsi": tsi = try reader.optionalString()
            case "applicationCryptogram": applicationCryptogram = try reader.optionalString()
            default: try reader.skip()
            }
        }
        guard let aid else { throw JSONBytesReader.Surprise() }
        return EMVSummary(
            aid: aid, applicationLabel: applicationLabel, tvr: tvr, tsi: tsi, applicationCryptogram: applicationCryptogram)
    }
}

extension ReceiptInfo {
    static func handDecoded(_ reader: inout JSONBytesReader) throws(JSONBytesReader.Surprise) -> ReceiptInfo {
        var receiptNumber: Int?, signatureRequired: Bool?, terminalID: String?
        try reader.object { reader, key throws(JSONBytesReader.Surprise) in
            switch key {
            case "receiptNumber": receiptNumber = Int(try reader.integer())
            case "signatureRequired": signatureRequired = try reader.boolean()
            case "terminalID": terminalID = try reader.optionalString()
            default: try reader.skip()
            }
        }
        guard let receiptNumber, let signatureRequired else { throw JSONBytesReader.Surprise() }
        return ReceiptInfo(receiptNumber: receiptNumber, signatureRequired: signatureRequired, terminalID: terminalID)
    }
}
