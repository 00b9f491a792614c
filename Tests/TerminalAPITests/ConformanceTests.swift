import Foundation
import TerminalAPI
import Testing

/// Every public Adyen example message: the well-formed ones decode and survive a round trip
/// field for field, the malformed ones are refused naming the field.
@Suite(.timeLimit(.minutes(2)))
struct ConformanceTests {
    @Test func theCatalogHoldsEveryFixture() throws {
        let files = try Fixture.allFiles()
        #expect(files.count == 52)
        let malformed = files.filter(Fixture.isMalformed)
        #expect(
            Set(malformed.map { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension })
                == Set(Fixture.refusals.keys))
    }

    @Test(arguments: try Fixture.allFiles().filter { !Fixture.isMalformed($0) })
    func wellFormedMessagesDecodeAndRoundTrip(file: String) throws {
        let first = try Fixture.decodeAndEncode(file)
        // Decoding what we wrote gives the same value, hence the same sorted-key bytes.
        let second = try reencoded(first, like: file)
        #expect(first == second, "\(file) changed in a round trip")
        // Every field we write was in the original, under the same name and path.
        let original = try JSONSerialization.jsonObject(with: Fixture.data(file))
        let written = try JSONSerialization.jsonObject(with: first)
        let extra = keyPaths(written).subtracting(keyPaths(original))
        #expect(extra.isEmpty, "\(file): fields written that the original lacks: \(extra.sorted())")
        #expect(!keyPaths(written).isEmpty, "\(file) decoded to nothing")
    }

    @Test(arguments: try Fixture.allFiles().filter(Fixture.isMalformed))
    func malformedMessagesAreRefusedNamingTheField(file: String) throws {
        let name = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        let (code, field) = try #require(Fixture.refusals[name])
        let data = try Fixture.data(file)
        let error: NexoError
        do {
            switch Fixture.kind(file) {
            case .rejection: _ = try NexoCoder.decodeResponse(data)
            case .fragment(let type): _ = try NexoCoder.decode(type, from: data)
            case .request: _ = try NexoCoder.decodeRequest(data)
            case .response: _ = try NexoCoder.decodeResponse(data)
            }
            Issue.record("\(file) was accepted")
            return
        } catch let refusal {
            error = refusal
        }
        #expect(error.code == code)
        #expect(error.field == field)
        #expect(error.condition == .messageFormat)
    }

    @Test func rejectNotificationsAreWellFormedRequestsCarryingTheTerminalsReason() throws {
        let data = try Fixture.data(
            "adyen-mock-terminal-api/notification__invalidJsonObjectNotificationResponse.json")
        let notification = try NexoCoder.decodeRequest(data)
        #expect(notification.eventNotification?.eventToNotify == .reject)
        #expect(notification.messageHeader.messageClass == .event)
        #expect(
            throws: NexoError(
                .rejected, field: "SaleToPOIRequest.EventNotification",
                message: "the terminal rejected the message (Reject): Input is not a JSONObject")
        ) {
            try NexoCoder.decodeResponse(data)
        }
    }

    @Test func refusalResponsesCarryResultConditionAndReason() throws {
        let expected: [(String, ErrorCondition, Int?)] = [
            ("payment__124_paymentNotEnoughBalanceResponse", .refusal, 210),
            ("payment__125_paymentCardBlockedResponse", .refusal, nil),
            ("payment__134_paymentWrongPinResponse", .wrongPIN, 129),
            // Adyen's own extension of nexo's list, kept rather than refused.
            ("payment__128_paymentInvalidCardResponse", .other("InvalidCard"), 214),
            ("paymentBusy__paymentBusyResponse", .busy, nil),
            ("abortPayment__abortPaymentResponse", .aborted, nil),
        ]
        for (name, condition, code) in expected {
            let response = try NexoCoder.decodeResponse(Fixture.data("adyen-mock-terminal-api/\(name).json"))
            let payment = try #require(response.paymentResponse)
            #expect(payment.response.result == .failure, "\(name)")
            #expect(payment.response.errorCondition == condition, "\(name)")
            if let code { #expect(payment.response.additionalResponse?.refusalReasonCode == code) }
        }
    }

    @Test func booleansWrittenAsWordsAreRead() throws {
        // Adyen's mock terminal repeats the payment with "OnlineFlag": "True".
        let response = try NexoCoder.decodeResponse(
            Fixture.data(
                "adyen-mock-terminal-api/paymentTransactionStatus__paymentTransactionStatusResponse.json"))
        let repeated = response.transactionStatusResponse?.repeatedMessageResponse?
            .repeatedResponseMessageBody
        #expect(repeated?.paymentResponse?.paymentResult?.onlineFlag == true)
        let yes = Data(
            #"{"TrainingModeFlag": "yes", "DateTime": "2026-01-01T00:00:00Z", "OperatorLanguage": "en", "SaleSoftware": {"ManufacturerID": "m", "ApplicationName": "a", "SoftwareVersion": "1"}}"#
                .utf8)
        #expect(
            throws: NexoError(.invalidValue, field: "TrainingModeFlag", message: "expected true or false")
        ) {
            try NexoCoder.decode(LoginRequest.self, from: yes)
        }
    }

    @Test func aPaymentRequestKeepsItsDecimalAmountAndAcquirerData() throws {
        let request = try NexoCoder.decodeRequest(
            Fixture.data("adyen-mock-terminal-api/payment__124_paymentNotEnoughBalanceRequest.json"))
        let payment = try #require(request.paymentRequest)
        #expect(payment.paymentTransaction.amountsReq.requestedAmount == NexoAmount("1.24"))
        #expect(try payment.paymentTransaction.amountsReq.requestedAmount?.minorUnits(exponent: 2) == 124)
        #expect(payment.saleData.saleToAcquirerData?.tenderOptions == ["ReceiptHandler"])
        #expect(
            payment.saleData.saleTransactionID.timeStamp.date == Date(timeIntervalSince1970: 1_686_571_716))
        #expect(request.messageHeader.poiID == "V400m-123456789")
    }

    private func reencoded(_ data: Data, like file: String) throws -> Data {
        switch Fixture.kind(file) {
        case .request, .rejection: return NexoCoder.encode(try NexoCoder.decodeRequest(data))
        case .response: return NexoCoder.encode(try NexoCoder.decodeResponse(data))
        case .fragment(let type): return try Fixture.reencode(type, data)
        }
    }

    /// The paths of every object key in a JSON value (array elements share their array's path).
    private func keyPaths(_ value: Any, prefix: String = "") -> Set<String> {
        var paths: Set<String> = []
        if let object = value as? [String: Any] {
            for (key, child) in object {
                let path = prefix + "/" + key
                paths.insert(path)
                paths.formUnion(keyPaths(child, prefix: path))
            }
        } else if let array = value as? [Any] {
            for element in array { paths.formUnion(keyPaths(element, prefix: prefix)) }
        }
        return paths
    }
}
