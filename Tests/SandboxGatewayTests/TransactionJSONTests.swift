import Foundation
import GatewayAPI
import MPOSCore
import Testing

@testable import SandboxGateway

/// The hand-written answer JSON of a card authorization must be exactly what `JSONEncoder`
/// writes, since both kinds of answer are stored and replayed byte for byte.
@Suite struct TransactionJSONTests {
    static func encoderBytes(_ t: Transaction) throws -> String {
        String(decoding: try GatewayJSON.makeEncoder().encode(t), as: UTF8.self)
    }

    static func handBytes(_ t: Transaction) -> String {
        String(decoding: TransactionJSON.data(t), as: UTF8.self)
    }

    static let id = TransactionID(rawValue: "txn_0123456789abcdef01234567")!

    static func filled(text: String, seconds: Double) -> Transaction {
        Transaction(
            id: id, originalID: TransactionID(rawValue: "txn_00000000000000000000000a"), kind: .refund,
            status: .partiallyApproved, requestedAmount: 12_34, approvedAmount: -5, tipAmount: Int64.max,
            totalAmount: Int64.min, currency: .jpy, authorizationCode: text, responseCode: "10",
            issuerAuthenticationData: "0102", issuerScripts: text, acquirerMessage: text, batchID: "17",
            card: CardSummary(
                scheme: "visa", maskedPAN: "411111******1111", cardholderName: text, expiryMonth: 12,
                expiryYear: 2030),
            entryMode: .contactless, cvm: .pinAndSignature,
            emv: EMVSummary(
                aid: "A0000000031010", applicationLabel: text, tvr: "0000000000", tsi: "E800",
                applicationCryptogram: "00"),
            customerReference: text, externalID: text, statementDescriptor: text,
            createdAt: Date(timeIntervalSince1970: seconds),
            receipt: ReceiptInfo(receiptNumber: 42, signatureRequired: true, terminalID: text))
    }

    @Test(arguments: [
        "plain", "", "quote \" backslash \\ slash / tab \t newline \n return \r",
        "controls \u{0} \u{1} \u{8} \u{b} \u{c} \u{1f} \u{7f}", "Ünïcödé € 日本 🙂 \u{2028}",
    ])
    func aFilledTransactionMatchesJSONEncoder(text: String) throws {
        let t = Self.filled(text: text, seconds: 1_763_913_204.987)
        #expect(Self.handBytes(t) == (try Self.encoderBytes(t)))
    }

    @Test func anEmptyTransactionMatchesJSONEncoder() throws {
        var t = Transaction(
            id: Self.id, kind: .sale, status: .declined, requestedAmount: 1, approvedAmount: 0, totalAmount: 0,
            currency: .eur, createdAt: Date(timeIntervalSince1970: 0))
        #expect(Self.handBytes(t) == (try Self.encoderBytes(t)))
        t.card = CardSummary(scheme: "amex", maskedPAN: "3714******8431")
        t.emv = EMVSummary(aid: "A000000025")
        t.receipt = ReceiptInfo(receiptNumber: 0, signatureRequired: false)
        #expect(Self.handBytes(t) == (try Self.encoderBytes(t)))
    }

    @Test func datesMatchJSONEncoderToTheSecond() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let seconds = Double.random(in: 0...4_102_444_800, using: &generator)
            let t = Self.filled(text: "d", seconds: seconds)
            #expect(Self.handBytes(t) == (try Self.encoderBytes(t)), "at \(seconds)")
        }
    }

    /// A field added to `Transaction` must be added to the writer too.
    @Test func theWriterKnowsEveryField() {
        let t = Self.filled(text: "x", seconds: 0)
        #expect(Mirror(reflecting: t).children.count == TransactionJSON.fieldCount)
        #expect(Mirror(reflecting: t.card!).children.count == 5)
        #expect(Mirror(reflecting: t.emv!).children.count == 5)
        #expect(Mirror(reflecting: t.receipt!).children.count == 3)
    }
}
