import Foundation
import GatewayAPI
import MPOSCore
import TerminalAPI
import Testing

@testable import MPOSKit

/// `PaymentTerminal.perform(terminalAPIRequest:)` against the real sandbox gateway and the
/// simulated reader over TCP: the Terminal API answers an app written for Adyen's SDK gets.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct TerminalAPIPerformTests {
    static let poiID = "V400m-123456789"

    /// A payment request in Adyen's JSON; `amount` is the JSON number's text.
    static func payment(
        _ amount: String, serviceID: String, poiID: String = poiID, paymentType: String? = nil,
        currency: String = "EUR", sale: String = "21f1268f-9126-4bce-b127-9c2d5ffa024e"
    ) -> Data {
        let paymentData = paymentType.map { #", "PaymentData": {"PaymentType": "\#($0)"}"# } ?? ""
        return Data(
            #"""
            {"SaleToPOIRequest": {"MessageHeader": {"ProtocolVersion": "3.0", "MessageClass": "Service",
              "MessageCategory": "Payment", "MessageType": "Request", "ServiceID": "\#(serviceID)",
              "SaleID": "SALE_ID_42", "POIID": "\#(poiID)"},
             "PaymentRequest": {"SaleData": {"SaleTransactionID": {"TransactionID": "\#(sale)",
               "TimeStamp": "2023-06-12T12:08:36+00:00"}},
              "PaymentTransaction": {"AmountsReq": {"Currency": "\#(currency)", "RequestedAmount": \#(amount)}}\#(paymentData)}}}
            """#.utf8)
    }

    /// A request of `category` whose body is `body`.
    static func request(_ category: String, serviceID: String, body: String) -> Data {
        Data(
            #"""
            {"SaleToPOIRequest": {"MessageHeader": {"ProtocolVersion": "3.0", "MessageClass": "Service",
              "MessageCategory": "\#(category)", "MessageType": "Request", "ServiceID": "\#(serviceID)",
              "SaleID": "SALE_ID_42", "POIID": "\#(poiID)"}, \#(body)}}
            """#.utf8)
    }

    static func status(of serviceID: String, asking: String) -> Data {
        request(
            "TransactionStatus", serviceID: asking,
            body:
                #""TransactionStatusRequest": {"MessageReference": {"MessageCategory": "Payment", "SaleID": "SALE_ID_42", "ServiceID": "\#(serviceID)"}}"#
        )
    }

    static func terminal(_ sandbox: Sandbox) async throws -> PaymentTerminal {
        let terminal = try await sandbox.terminal()
        await terminal.terminalAPI.setInstallationID(poiID)
        return terminal
    }

    static func paymentResponse(_ data: Data) throws -> PaymentResponse {
        try #require(try NexoCoder.decodeResponse(data).paymentResponse)
    }

    static func sales(on terminal: PaymentTerminal) async throws -> [Transaction] {
        try await terminal.reports.searchTransactions(TransactionSearchRequest(pageSize: 100)).items
    }

    @Test func anApprovedPaymentAnswersWithTheFieldsAdyenSends() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await Self.terminal(sandbox)
        let response = try Self.paymentResponse(
            try await terminal.perform(terminalAPIRequest: Self.payment("12.00", serviceID: "S1")))
        #expect(response.response.result == .success)
        let id = response.poiData.poiTransactionID.transactionID
        let records = try await Self.sales(on: terminal)
        #expect(records.map(\.id.rawValue) == [id])
        #expect(records.first?.approvedAmount == 12_00)
        #expect(records.first?.externalID == "21f1268f-9126-4bce-b127-9c2d5ffa024e")
        #expect(response.saleData.saleTransactionID.transactionID == "21f1268f-9126-4bce-b127-9c2d5ffa024e")
        let result = try #require(response.paymentResult)
        #expect(result.amountsResp?.authorizedAmount == NexoAmount(Decimal(string: "12")!))
        #expect(result.amountsResp?.currency == "EUR")
        #expect(result.paymentAcquirerData?.acquirerPOIID == Self.poiID)
        #expect(result.paymentAcquirerData?.approvalCode == records.first?.authorizationCode)
        let card = try #require(result.paymentInstrumentData?.cardData)
        #expect(card.maskedPan == records.first?.card?.maskedPAN)
        #expect(card.paymentBrand == records.first?.card?.scheme)
        #expect(card.entryMode?.isEmpty == false)
        try await sandbox.close(terminal)
    }

    /// The sandbox's test-acquirer amounts answer as Adyen's mock terminal does for them.
    @Test func refusalAmountsAnswerAsAdyensMockTerminal() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await Self.terminal(sandbox)
        let cases = [
            ("1.24", "payment__124_paymentNotEnoughBalanceResponse"),
            ("1.25", "payment__125_paymentCardBlockedResponse"),
            ("1.26", "payment__126_paymentCardExpiredResponse"),
            ("1.27", "payment__127_paymentInvalidAmountResponse"),
            ("1.28", "payment__128_paymentInvalidCardResponse"),
            ("1.34", "payment__134_paymentWrongPinResponse"),
        ]
        for (index, (amount, file)) in cases.enumerated() {
            let ours = try Self.paymentResponse(
                try await terminal.perform(terminalAPIRequest: Self.payment(amount, serviceID: "R\(index)"))
            ).response
            let adyen = try MockTerminalFixtures.paymentResponse(file).response
            #expect(ours.result == adyen.result, "\(amount)")
            #expect(ours.errorCondition == adyen.errorCondition, "\(amount)")
            #expect(
                ours.additionalResponse?.refusalReason == adyen.additionalResponse?.refusalReason, "\(amount)"
            )
        }
        try await sandbox.close(terminal)
    }

    /// The key comes from SaleID and ServiceID: asking again, even from a new terminal after
    /// a restart, answers the first payment and charges nothing more.
    @Test func aRepeatedRequestIsAnsweredNotChargedAgain() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await Self.terminal(sandbox)
        let request = Self.payment("7.00", serviceID: "S2")
        let first = try Self.paymentResponse(try await terminal.perform(terminalAPIRequest: request))
        let second = try Self.paymentResponse(try await terminal.perform(terminalAPIRequest: request))
        #expect(first.response.result == .success)
        #expect(second == first)
        await terminal.disconnect()
        // The app restarted and lost the answer: a new terminal on the same journal.
        let restarted = try await Self.terminal(sandbox)
        let again = try Self.paymentResponse(try await restarted.perform(terminalAPIRequest: request))
        #expect(again.poiData.poiTransactionID.transactionID == first.poiData.poiTransactionID.transactionID)
        #expect(again.response.result == .success)
        let status = try #require(
            try NexoCoder.decodeResponse(
                try await restarted.perform(terminalAPIRequest: Self.status(of: "S2", asking: "T1"))
            ).transactionStatusResponse)
        #expect(status.response.result == .success)
        #expect(
            status.repeatedMessageResponse?.repeatedResponseMessageBody.paymentResponse?.poiData
                .poiTransactionID
                .transactionID == first.poiData.poiTransactionID.transactionID)
        #expect(status.repeatedMessageResponse?.messageHeader.serviceID == "S2")
        #expect(try await Self.sales(on: restarted).count == 1)
        let unknown = try #require(
            try NexoCoder.decodeResponse(
                try await restarted.perform(terminalAPIRequest: Self.status(of: "NEVER", asking: "T2"))
            ).transactionStatusResponse)
        #expect(unknown.response.errorCondition == .notFound)
        try await sandbox.close(restarted)
    }

    /// A request the journal knows but the gateway never saw charged nothing: asked again,
    /// it runs now (under the same key) instead of answering NotFound for ever.
    @Test func aRequestTheGatewayNeverSawRunsWhenAskedAgain() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await Self.terminal(sandbox)
        let now = Date()
        try await terminal.payments.journal.write(
            JournalEntry(
                key: NexoSession.key(for: .init(saleID: "SALE_ID_42", serviceID: "N1")),
                operation: .card(.sale),
                readerTransactionID: nil, originalTransactionID: nil, amount: 4_00, currency: .eur,
                state: .finished,
                maskedPAN: nil, gatewayTransactionID: nil, outcome: .failed, createdAt: now, updatedAt: now))
        let response = try Self.paymentResponse(
            try await terminal.perform(terminalAPIRequest: Self.payment("4.00", serviceID: "N1")))
        #expect(response.response.result == .success)
        #expect(try await Self.sales(on: terminal).count == 1)
        try await sandbox.close(terminal)
    }

    @Test func aRefundPaymentTypeIsAnUnreferencedRefund() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await Self.terminal(sandbox)
        let response = try Self.paymentResponse(
            try await terminal.perform(terminalAPIRequest: 
                Self.payment("5.00", serviceID: "S3", paymentType: "Refund")))
        #expect(response.response.result == .success)
        #expect(response.paymentResult?.paymentType == .refund)
        #expect(try await Self.sales(on: terminal).map(\.kind) == [.refund])
        try await sandbox.close(terminal)
    }

    @Test func aReversalVoidsTheEarlierPayment() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await Self.terminal(sandbox)
        let payment = try Self.paymentResponse(
            try await terminal.perform(terminalAPIRequest: Self.payment("9.00", serviceID: "S4")))
        let id = payment.poiData.poiTransactionID.transactionID
        let reply = try await terminal.perform(terminalAPIRequest: 
            Self.request(
                "Reversal", serviceID: "S5",
                body:
                    #""ReversalRequest": {"OriginalPOITransaction": {"POITransactionID": {"TransactionID": "\#(id)", "TimeStamp": "2024-01-01T00:00:00Z"}}, "ReversalReason": "MerchantCancel"}"#
            ))
        let reversal = try #require(try NexoCoder.decodeResponse(reply).reversalResponse)
        #expect(reversal.response.result == .success)
        #expect(reversal.originalPOITransaction?.poiTransactionID?.transactionID == id)
        let records = try await Self.sales(on: terminal)
        #expect(records.first { $0.id.rawValue == id }?.status != .approved)
        #expect(records.contains { $0.originalID?.rawValue == id })
        try await sandbox.close(terminal)
    }

    @Test func withoutOneSetThePOIIDIsTheInstallationsOwnWhicheverReaderAndAfterARestart() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let id = await terminal.terminalAPI.installationID()
        #expect(id.hasPrefix("MPOSKit-") && id.count == 20)
        #expect(id != (try await terminal.reader.info().serialNumber))
        let response = try Self.paymentResponse(
            try await terminal.perform(terminalAPIRequest: 
                Self.payment("2.50", serviceID: "D1", poiID: id)))
        #expect(response.response.result == .success)
        // Without a reader, and in a new process on the same journal, the id stays.
        await terminal.disconnect()
        #expect(await terminal.terminalAPI.installationID() == id)
        let restarted = try await sandbox.terminal(connect: false)
        #expect(await restarted.terminalAPI.installationID() == id)
        // Another installation (another journal) has another id.
        let elsewhere = try PaymentTerminal(
            environment: sandbox.gateway.baseURL,
            credentials: .login(user: sandbox.credentials.user, password: sandbox.credentials.password),
            journalPath: sandbox.directory.appendingPathComponent("elsewhere.sqlite").path)
        #expect(await elsewhere.terminalAPI.installationID() != id)
        try await sandbox.close(terminal)
    }

    @Test func anotherPOIIDIsNotAllowedAndChargesNothing() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await Self.terminal(sandbox)
        let response = try Self.paymentResponse(
            try await terminal.perform(terminalAPIRequest: 
                Self.payment("3.00", serviceID: "S6", poiID: "P400-1")))
        #expect(response.response.result == .failure)
        #expect(response.response.errorCondition == .notAllowed)
        #expect(response.response.additionalResponse?.message?.contains("P400-1") == true)
        #expect(try await Self.sales(on: terminal).isEmpty)
        try await sandbox.close(terminal)
    }

    @Test func aMalformedBodyIsAMessageFormatErrorNamingTheField() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await Self.terminal(sandbox)
        // Finer than a cent.
        let fine = try Self.paymentResponse(
            try await terminal.perform(terminalAPIRequest: Self.payment("1.005", serviceID: "S7")))
        #expect(fine.response.errorCondition == .messageFormat)
        #expect(fine.response.additionalResponse?.message?.contains("AmountsReq.RequestedAmount") == true)
        // No currency: the header is readable, the body is not.
        let text = String(decoding: Self.payment("1.00", serviceID: "S8"), as: UTF8.self)
            .replacingOccurrences(of: #""Currency": "EUR", "#, with: "")
        let missing = try Self.paymentResponse(
            try await terminal.perform(terminalAPIRequest: Data(text.utf8)))
        #expect(missing.response.errorCondition == .messageFormat)
        #expect(missing.response.additionalResponse?.message?.contains("AmountsReq.Currency") == true)
        // Not a message at all: a typed error, no response.
        await #expect(throws: MPOSError.terminalAPIMessageInvalid) {
            _ = try await terminal.perform(terminalAPIRequest: Data("02893fy0f238hg".utf8))
        }
        #expect(try await Self.sales(on: terminal).isEmpty)
        try await sandbox.close(terminal)
    }

    /// While a payment waits for a card: another payment is Busy, its status InProgress, and
    /// an Abort cancels it, answered as Adyen answers a merchant's abort.
    @Test func busyInProgressAndAbortWhileWaitingForACard() async throws {
        let sandbox = try await Sandbox { $0.waitsForCard = true }
        let terminal = try await Self.terminal(sandbox)
        let statuses = terminal.events.subscribe([.status])
        // Unstructured: the payment waits for a card while the test sends the other requests.
        let running = Task {
            try await terminal.perform(terminalAPIRequest: Self.payment("5.00", serviceID: "B1"))
        }
        for await event in statuses {
            if case .readerStatus(.waitingCard, _, true) = event { break }
        }
        let busy = try Self.paymentResponse(
            try await terminal.perform(terminalAPIRequest: Self.payment("6.00", serviceID: "B2")))
        #expect(busy.response.errorCondition == .busy)
        let status = try #require(
            try NexoCoder.decodeResponse(
                try await terminal.perform(terminalAPIRequest: Self.status(of: "B1", asking: "B3"))
            ).transactionStatusResponse)
        #expect(status.response.errorCondition == .inProgress)
        let abort = try await terminal.perform(terminalAPIRequest: 
            Self.request(
                "Abort", serviceID: "B4",
                body:
                    #""AbortRequest": {"AbortReason": "MerchantAbort", "MessageReference": {"MessageCategory": "Payment", "SaleID": "SALE_ID_42", "ServiceID": "B1"}}"#
            ))
        #expect(abort.isEmpty)
        let aborted = try Self.paymentResponse(try await running.value).response
        let adyen = try MockTerminalFixtures.paymentResponse("abortPayment__abortPaymentResponse").response
        #expect(aborted.result == adyen.result)
        #expect(aborted.errorCondition == adyen.errorCondition)
        #expect(aborted.additionalResponse?.message == "104 Merchant cancelled")
        #expect(try await Self.sales(on: terminal).isEmpty)
        try await sandbox.close(terminal)
    }
}

/// Adyen's mock terminal messages, kept with the TerminalAPI tests.
enum MockTerminalFixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("TerminalAPITests/Fixtures/adyen-mock-terminal-api")

    static func paymentResponse(_ name: String) throws -> PaymentResponse {
        let data = try Data(contentsOf: directory.appendingPathComponent("\(name).json"))
        return try #require(try NexoCoder.decodeResponse(data).paymentResponse)
    }
}
