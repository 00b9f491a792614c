import Foundation
import GatewayAPI
import MPOSCore
import Testing

/// The bytes on the wire of a card authorization and its answer, as `GatewayJSON` writes
/// them: sorted keys, absent optionals left out, slashes unescaped, dates to the second.
/// Idempotent replays return stored bytes, so these must not drift between releases.
@Suite(.timeLimit(.minutes(2))) struct GatewayJSONWireFormatTests {
    @Test func aCardRequestIsWrittenWithSortedKeysAndNoNulls() throws {
        let request = AuthorizeCardRequest(
            kind: .sale, parameters: PaymentParameters(amount: 1234, currency: .eur, externalID: "ext/1"),
            emvData: "9F02", entryMode: .chip, cvm: .pin)
        let text = String(decoding: try GatewayJSON.makeEncoder().encode(request), as: UTF8.self)
        #expect(
            text == #"{"allowPartialApproval":false,"amount":1234,"captureMode":"completedSale","#
                + #""cardholderPresent":true,"currency":"EUR","cvm":"pin","duplicateCheck":true,"#
                + #""emvData":"9F02","entryMode":"chip","externalID":"ext/1","kind":"sale"}"#)
    }

    @Test func omittedAndNullFlagsTakeTheirDefaults() throws {
        let json =
            #"{"kind":"sale","amount":5,"currency":"EUR","entryMode":"chip","cvm":"pin","duplicateCheck":null,"basket":null}"#
        let request = try GatewayJSON.makeDecoder().decode(AuthorizeCardRequest.self, from: Data(json.utf8))
        let payment = request.parameters
        #expect(payment.cardholderPresent && payment.duplicateCheck && !payment.allowPartialApproval)
        #expect(payment.captureMode == .completedSale)
        #expect(payment.basket == nil)
    }

    @Test func aTransactionIsWrittenToTheSecondAndReadBack() throws {
        let transaction = Transaction(
            id: TransactionID(rawValue: "txn_0123456789abcdef01234567")!, kind: .sale, status: .approved,
            requestedAmount: 100, approvedAmount: 100, totalAmount: 100, currency: .jpy,
            card: CardSummary(scheme: "visa", maskedPAN: "411111******1111"),
            createdAt: Date(timeIntervalSince1970: 1_700_000_000.75),
            receipt: ReceiptInfo(receiptNumber: 7, signatureRequired: false))
        let data = try GatewayJSON.makeEncoder().encode(transaction)
        #expect(
            String(decoding: data, as: UTF8.self)
                == #"{"approvedAmount":100,"card":{"maskedPAN":"411111******1111","scheme":"visa"},"#
                + #""createdAt":"2023-11-14T22:13:20Z","currency":"JPY","id":"txn_0123456789abcdef01234567","#
                + #""kind":"sale","receipt":{"receiptNumber":7,"signatureRequired":false},"requestedAmount":100,"#
                + #""status":"approved","tipAmount":0,"totalAmount":100}"#)
        var expected = transaction
        expected.createdAt = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(try GatewayJSON.makeDecoder().decode(Transaction.self, from: data) == expected)
    }

    @Test(arguments: ["", "null", "{}", "[]", #"{"kind":"sale"}"#, #"{"kind":"gift","amount":1}"#])
    func malformedRequestsAreDecodingErrors(text: String) {
        #expect(throws: DecodingError.self) {
            try GatewayJSON.makeDecoder().decode(AuthorizeCardRequest.self, from: Data(text.utf8))
        }
    }
}
