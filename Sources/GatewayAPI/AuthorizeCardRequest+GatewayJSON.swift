#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MPOSCore

extension AuthorizeCardRequest {
    /// The stored properties of `AuthorizeCardRequest` that ``gatewayJSON()`` knows; a test
    /// fails when the type gains one this count does not know.
    static let handEncodedFieldCount = 19

    /// The request's JSON, byte for byte what `GatewayJSON.makeEncoder()` writes (so a request
    /// hashes the same for the gateway's idempotency check whichever wrote it).
    ///
    /// Every card payment sends one; `JSONEncoder` cost about 1.5 % of a sale's CPU. Requests
    /// with instalments or a basket, rarer and deeper, go through `JSONEncoder`.
    public func gatewayJSON() throws -> Data {
        guard installments == nil, basket == nil else { return try GatewayJSON.makeEncoder().encode(self) }
        var w = JSONObjectWriter()
        w.bool("allowPartialApproval", allowPartialApproval)
        w.integer("amount", amount)
        w.string("captureMode", captureMode.rawValue)
        w.bool("cardholderPresent", cardholderPresent)
        w.string("currency", currency.code)
        w.string("customerReference", customerReference)
        w.string("cvm", cvm.rawValue)
        w.bool("duplicateCheck", duplicateCheck)
        w.string("emvData", emvData)
        w.string("encryptedCardData", encryptedCardData)
        w.string("entryMode", entryMode.rawValue)
        w.string("externalID", externalID)
        w.string("kind", kind.rawValue)
        w.string("ksn", ksn)
        w.string("maskedPAN", maskedPAN)
        w.string("statementDescriptor", statementDescriptor)
        w.string("statementDescriptorSuffix", statementDescriptorSuffix)
        return Data(w.finished())
    }

    /// Decodes a request as `GatewayJSON.makeDecoder()` does, with the same result or the same
    /// error, reading the usual request (no instalments, no basket) by hand: `JSONDecoder`
    /// cost about 1 % of a sale's CPU in the gateway. Whatever the hand reader does not vouch
    /// for goes to `JSONDecoder` (see ``Transaction/decodeGatewayJSON(_:)``).
    public static func decodeGatewayJSON(_ data: Data) throws -> AuthorizeCardRequest {
        if let request = try? handDecoded(data) { return request }
        return try GatewayJSON.makeDecoder().decode(AuthorizeCardRequest.self, from: data)
    }

    package static func handDecoded(_ data: Data) throws(JSONBytesReader.Surprise) -> AuthorizeCardRequest {
        typealias Surprise = JSONBytesReader.Surprise
        var reader = JSONBytesReader(data)
        var kind: CardPaymentKind?, amount: Int64?, currency: Currency?, entryMode: CardEntryMode?
        var cvm: CardholderVerification?, captureMode: CaptureMode?
        var emvData: String?, encryptedCardData: String?, ksn: String?, maskedPAN: String?
        var customerReference: String?, externalID: String?, statementDescriptor: String?
        var statementDescriptorSuffix: String?
        var cardholderPresent: Bool?, duplicateCheck: Bool?, allowPartialApproval: Bool?

        try reader.object { reader, key throws(Surprise) in
            switch key {
            case "kind": kind = try reader.named(CardPaymentKind.self)
            case "amount": amount = try reader.integer()
            case "currency":
                guard let code = Currency(code: try reader.string()) else { throw Surprise() }
                currency = code
            case "emvData": emvData = try reader.optionalString()
            case "encryptedCardData": encryptedCardData = try reader.optionalString()
            case "ksn": ksn = try reader.optionalString()
            case "maskedPAN": maskedPAN = try reader.optionalString()
            case "entryMode": entryMode = try reader.named(CardEntryMode.self)
            case "cvm": cvm = try reader.named(CardholderVerification.self)
            case "cardholderPresent": cardholderPresent = try reader.optionalBoolean()
            case "customerReference": customerReference = try reader.optionalString()
            case "externalID": externalID = try reader.optionalString()
            case "statementDescriptor": statementDescriptor = try reader.optionalString()
            case "statementDescriptorSuffix": statementDescriptorSuffix = try reader.optionalString()
            case "duplicateCheck": duplicateCheck = try reader.optionalBoolean()
            case "allowPartialApproval": allowPartialApproval = try reader.optionalBoolean()
            case "captureMode": captureMode = try reader.optionalNamed(CaptureMode.self)
            // Instalments and baskets are JSONDecoder's (an explicit null is nothing).
            case "installments", "basket": guard reader.null() else { throw Surprise() }
            default: try reader.skip()
            }
        }
        try reader.finish()
        guard let kind, let amount, let currency, let entryMode, let cvm else { throw Surprise() }
        return AuthorizeCardRequest(
            kind: kind, amount: amount, currency: currency, emvData: emvData, encryptedCardData: encryptedCardData,
            ksn: ksn, maskedPAN: maskedPAN, entryMode: entryMode, cvm: cvm, cardholderPresent: cardholderPresent ?? true,
            customerReference: customerReference, externalID: externalID, statementDescriptor: statementDescriptor,
            statementDescriptorSuffix: statementDescriptorSuffix, duplicateCheck: duplicateCheck ?? true,
            allowPartialApproval: allowPartialApproval ?? false, captureMode: captureMode ?? .completedSale)
    }
}
