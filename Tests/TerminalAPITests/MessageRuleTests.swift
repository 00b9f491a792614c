import Foundation
import TerminalAPI
import Testing

/// How whole messages are refused: missing and wrongly cased fields, unknown values, bodies.
@Suite(.timeLimit(.minutes(2)))
struct MessageRuleTests {
    private func payment(header: String, body: String = Self.paymentBody) -> Data {
        Data(#"{"SaleToPOIRequest": {"MessageHeader": {\#(header)}, \#(body)}}"#.utf8)
    }

    private static let header =
        #""ProtocolVersion": "3.0", "MessageClass": "Service", "MessageCategory": "Payment", "MessageType": "Request", "ServiceID": "42", "SaleID": "POS-1", "POIID": "V400m-1""#
    private static let paymentBody =
        #""PaymentRequest": {"SaleData": {"SaleTransactionID": {"TransactionID": "t1", "TimeStamp": "2026-11-26T06:00:00Z"}}, "PaymentTransaction": {"AmountsReq": {"Currency": "EUR", "RequestedAmount": 10.5}}}"#

    private func refusal(_ data: Data) -> NexoError? {
        do {
            _ = try NexoCoder.decodeRequest(data)
            return nil
        } catch {
            return error
        }
    }

    @Test func aValidPaymentDecodesAndUnknownFieldsAreIgnored() throws {
        let data = payment(header: Self.header + #", "AdyenExtension": {"x": 1}"#)
        let request = try NexoCoder.decodeRequest(data)
        #expect(request.messageHeader.serviceID == "42")
        #expect(request.paymentRequest?.paymentTransaction.amountsReq.requestedAmount == NexoAmount("10.5"))
    }

    @Test func aServiceRequestWithoutServiceIDIsRefusedNamingIt() {
        let header = Self.header.replacingOccurrences(of: #""ServiceID": "42", "#, with: "")
        let error = refusal(payment(header: header))
        #expect(error?.code == .missingField)
        #expect(error?.field == "SaleToPOIRequest.MessageHeader.ServiceID")
        #expect(error?.condition == .messageFormat)
    }

    @Test func aMissingNestedFieldIsNamedByItsPath() {
        let body = Self.paymentBody.replacingOccurrences(of: #""Currency": "EUR", "#, with: "")
        let error = refusal(payment(header: Self.header, body: body))
        #expect(error?.code == .missingField)
        #expect(error?.field == "SaleToPOIRequest.PaymentRequest.PaymentTransaction.AmountsReq.Currency")
    }

    @Test func wrongCasingIsRefusedEvenForOptionalFields() {
        let mandatory = refusal(
            payment(header: Self.header.replacingOccurrences(of: "SaleID", with: "SaleId")))
        #expect(mandatory?.code == .wrongCase)
        #expect(mandatory?.field == "SaleToPOIRequest.MessageHeader.SaleID")
        let optional = refusal(
            payment(header: Self.header.replacingOccurrences(of: "ProtocolVersion", with: "protocolVersion")))
        #expect(optional?.code == .wrongCase)
        #expect(optional?.field == "SaleToPOIRequest.MessageHeader.ProtocolVersion")
    }

    @Test func anUnknownValueOfAClosedListIsRefusedNamingTheField() {
        let error = refusal(
            payment(header: Self.header.replacingOccurrences(of: #""Payment""#, with: #""Paymant""#)))
        #expect(error?.code == .unknownValue)
        #expect(error?.field == "SaleToPOIRequest.MessageHeader.MessageCategory")
    }

    @Test func anUnknownEventIsKeptBecauseAdyenExtendsThatList() throws {
        let data = Data(
            #"{"SaleToPOIRequest": {"MessageHeader": {"MessageClass": "Event", "MessageCategory": "Event", "MessageType": "Notification", "SaleID": "s", "POIID": "p"}, "EventNotification": {"TimeStamp": "2026-11-26T06:00:00Z", "EventToNotify": "NetworkConnected"}}}"#
                .utf8)
        let event = try #require(try NexoCoder.decodeRequest(data).eventNotification)
        #expect(event.eventToNotify == .other("NetworkConnected"))
        #expect(event.eventToNotify.rawValue == "NetworkConnected")
    }

    @Test func wrongTypesAndBadTimestampsAreRefusedNamingTheField() {
        let amount = refusal(
            payment(
                header: Self.header, body: Self.paymentBody.replacingOccurrences(of: "10.5", with: #""10.5""#)
            ))
        #expect(amount?.code == .invalidValue)
        #expect(
            amount?.field == "SaleToPOIRequest.PaymentRequest.PaymentTransaction.AmountsReq.RequestedAmount")
        let time = refusal(
            payment(
                header: Self.header,
                body: Self.paymentBody.replacingOccurrences(of: "2026-11-26T06:00:00Z", with: "yesterday")))
        #expect(time?.code == .invalidValue)
        #expect(time?.field == "SaleToPOIRequest.PaymentRequest.SaleData.SaleTransactionID.TimeStamp")
    }

    @Test func aBodyMustBeAloneAndMatchTheHeader() {
        let none = refusal(Data(#"{"SaleToPOIRequest": {"MessageHeader": {\#(Self.header)}}}"#.utf8))
        #expect(none?.code == .bodyCount)
        #expect(none?.field == "SaleToPOIRequest")
        let logout = #""LogoutRequest": {}"#
        let two = refusal(payment(header: Self.header, body: Self.paymentBody + ", " + logout))
        #expect(two?.code == .bodyCount)
        let mismatch = refusal(payment(header: Self.header, body: logout))
        #expect(mismatch?.code == .bodyMismatch)
        #expect(mismatch?.field == "SaleToPOIRequest.MessageHeader.MessageCategory")
    }

    @Test func textThatIsNotAJSONObjectIsRefused() {
        for text in ["", "[]", "42", "{", #"{"SaleToPOIRequest": 1}"#] {
            let error = refusal(Data(text.utf8))
            #expect(error != nil, "\(text)")
            #expect(error?.condition == .messageFormat)
        }
        #expect(refusal(Data("[]".utf8))?.code == .notJSON)
    }

    @Test func encodingWritesAdyensNamesAndDecimalNumbers() throws {
        let request = try NexoCoder.decodeRequest(payment(header: Self.header))
        let text = String(decoding: NexoCoder.encode(request), as: UTF8.self)
        #expect(
            text.contains(
                #""MessageHeader":{"MessageCategory":"Payment","MessageClass":"Service","MessageType":"Request","POIID":"V400m-1","ProtocolVersion":"3.0","SaleID":"POS-1","ServiceID":"42"}"#
            ))
        #expect(text.contains(#""RequestedAmount":10.5"#))
        #expect(text.hasPrefix(#"{"SaleToPOIRequest":{"#))
    }
}
