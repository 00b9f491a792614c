import Foundation
import TerminalAPI
import Testing

/// Amounts, timestamps and Adyen's key-value strings.
@Suite(.timeLimit(.minutes(2)))
struct ValueTypeTests {
    private struct Holder: Codable, Equatable {
        var amount: NexoAmount
    }

    private func amount(_ json: String) throws -> NexoAmount {
        try JSONDecoder().decode(Holder.self, from: Data("{\"amount\": \(json)}".utf8)).amount
    }

    @Test func amountsAreExactDecimalsNotBinaryFloatingPoint() throws {
        // 0.1 + 0.2 is 0.30000000000000004 in Double; here it is 0.3 exactly.
        let sum = try amount("0.1") + amount("0.2")
        #expect(sum == NexoAmount("0.3"))
        #expect(try sum.minorUnits(exponent: 2) == 30)
        // Seventeen significant digits, beyond what a Double holds.
        let large = try amount("12345678901234567.89")
        #expect(large.description == "12345678901234567.89")
        #expect(
            String(decoding: NexoCoder.encodeValue(Holder(amount: large)), as: UTF8.self)
                == #"{"amount":12345678901234567.89}"#)
    }

    @Test func aThirdDecimalIsKeptButRefusedAsMinorUnitsOfATwoDecimalCurrency() throws {
        let value = try amount("12.345")
        #expect(value == NexoAmount("12.345"))
        #expect(try value.minorUnits(exponent: 3) == 12_345)
        #expect(
            throws: NexoError(
                .amountPrecision, field: "RequestedAmount",
                message: "12.345 has more than 2 decimals for its currency")
        ) {
            try value.minorUnits(exponent: 2, field: "RequestedAmount")
        }
        #expect(NexoAmount(minorUnits: 1234, exponent: 2) == NexoAmount("12.34"))
        #expect(NexoAmount("1e3") == nil)
        #expect(NexoAmount("12.") == nil)
    }

    @Test func amountsBeyondMinorUnitRangeAreRefusedNotTrapped() throws {
        let huge = try #require(NexoAmount("99999999999999999999999.99"))
        #expect(
            throws: NexoError(
                .invalidValue, field: nil, message: "99999999999999999999999.99 is out of range")
        ) {
            try huge.minorUnits(exponent: 2)
        }
        let holder = Data(#"{"amount": 1e400}"#.utf8)
        // A number no parser can hold is refused as the text is, before any field is read.
        let error = #expect(throws: NexoError.self) { try NexoCoder.decode(Holder.self, from: holder) }
        #expect(error?.code == .notJSON)
    }

    @Test func timestampsParseEveryFormTerminalsSendAndKeepTheirText() throws {
        let instant = Date(timeIntervalSince1970: 1_556_529_591)
        #expect(NexoTimestamp("2019-04-29T09:19:51.000Z")?.date == instant)
        #expect(NexoTimestamp("2019-04-29T09:19:51Z")?.date == instant)
        #expect(NexoTimestamp("2019-04-29T11:19:51+02:00")?.date == instant)
        #expect(NexoTimestamp("2019-04-29T08:19:51-01:00")?.date == instant)
        #expect(NexoTimestamp("2019-04-29T09:19:51.5Z")?.date == instant.addingTimeInterval(0.5))
        #expect(NexoTimestamp("2019-04-29T11:19:51+02:00")?.text == "2019-04-29T11:19:51+02:00")
        #expect(NexoTimestamp(instant).text == "2019-04-29T09:19:51.000Z")
        for bad in [
            "2019-04-29", "2019-04-29T09:19:51", "2019-02-30T09:19:51Z", "2019-04-29T25:00:00Z", "x", "",
        ] {
            #expect(NexoTimestamp(bad) == nil, "\(bad)")
        }
    }

    @Test func additionalResponseReadsTheURLEncodedForm() {
        let response = AdditionalResponse(
            text:
                "message=NOT_ENOUGH_BALANCE&refusalReason=210%20Not%20enough%20balance&posAuthAmountValue=124&offline=false&cardHolderName=N%2fA"
        )
        #expect(response.form == .urlEncoded)
        #expect(response.message == "NOT_ENOUGH_BALANCE")
        #expect(response.refusalReason == "210 Not enough balance")
        #expect(response.refusalReasonCode == 210)
        #expect(response.authorizedMinorUnits == 124)
        #expect(response.offline == false)
        #expect(response["cardHolderName"] == "N/A")
    }

    @Test func additionalResponseReadsTheBase64JSONForm() {
        let json =
            #"{"additionalData":{"pspReference":"8815573255107661","authCode":"123456"},"message":"APPROVED"}"#
        let response = AdditionalResponse(text: Data(json.utf8).base64EncodedString())
        #expect(response.form == .base64JSON)
        #expect(response.pspReference == "8815573255107661")
        #expect(response.authCode == "123456")
        #expect(response.message == "APPROVED")
    }

    @Test func saleToAcquirerDataWritesAndReadsBothForms() {
        let fields = [
            KeyValueField(name: "tenderOption", value: "ReceiptHandler,AskGratuity"),
            KeyValueField(name: "shopperEmail", value: "a b@example.com"),
        ]
        let encoded = SaleToAcquirerData(fields: fields)
        #expect(encoded.text == "tenderOption=ReceiptHandler%2CAskGratuity&shopperEmail=a%20b%40example.com")
        let decoded = SaleToAcquirerData(text: encoded.text)
        #expect(decoded.tenderOptions == ["ReceiptHandler", "AskGratuity"])
        #expect(decoded.shopperEmail == "a b@example.com")
        let json = SaleToAcquirerData(fields: fields, form: .base64JSON)
        let reread = SaleToAcquirerData(text: json.text)
        #expect(reread.form == .base64JSON)
        #expect(reread.fields.sorted { $0.name < $1.name } == fields.sorted { $0.name < $1.name })
    }

    @Test func placeholdersThatAreNeitherFormStayAsText() {
        let placeholder = AdditionalResponse(text: ".+message=104%20Merchant%20cancelled.+")
        #expect(placeholder.text == ".+message=104%20Merchant%20cancelled.+")
        // `+` reads as a space, as in every form-encoded string.
        #expect(placeholder.fields == [KeyValueField(name: ". message", value: "104 Merchant cancelled. ")])
    }
}
