import Foundation
import GatewayAPI
import MPOSCore
import TerminalAPI
import Testing

@testable import MPOSKit

/// `terminal.perform(terminalAPIRequest:)` with store and forward on, against the real sandbox
/// gateway (taken out of reach and brought back) and the simulated reader over TCP: a Terminal
/// API sale is stored as the native API stores it and forwarded once.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct TerminalAPIStoreAndForwardTests {
    static func terminal(_ sandbox: Sandbox, storeAndForward: Bool) async throws -> (
        PaymentTerminal, ChaosTransport
    ) {
        let outage = ChaosTransport()
        let terminal = try await sandbox.terminal(
            transport: outage, clock: ShortWaitsPassClock(upTo: .seconds(8)))
        await terminal.terminalAPI.setInstallationID(TerminalAPIPerformTests.poiID)
        await terminal.terminalAPI.setStoreAndForward(storeAndForward)
        return (terminal, outage)
    }

    static func perform(_ terminal: PaymentTerminal, _ amount: String, serviceID: String) async throws
        -> PaymentResponse
    {
        try TerminalAPIPerformTests.paymentResponse(
            try await terminal.perform(terminalAPIRequest: 
                TerminalAPIPerformTests.payment(amount, serviceID: serviceID)))
    }

    @Test func aSaleWhileTheGatewayIsOutOfReachIsStoredAnsweredAsOfflineAndForwardedOnce() async throws {
        let sandbox = try await Sandbox()
        let (terminal, outage) = try await Self.terminal(sandbox, storeAndForward: true)
        outage.goDown(reaching: "/nothing")
        let response = try await Self.perform(terminal, "31.00", serviceID: "SF1")
        #expect(response.response.result == .success)
        #expect(response.response.additionalResponse?.message == "APPROVED_OFFLINE")
        #expect(response.response.additionalResponse?.offline == true)
        #expect(response.paymentResult?.onlineFlag == false)
        #expect(response.paymentResult?.amountsResp?.authorizedAmount == NexoAmount(Decimal(31)))
        let stored = try await terminal.offline.list().payments
        #expect(stored.count == 1)
        let id = try #require(stored.first?.id)
        #expect(response.poiData.poiTransactionID.transactionID == id.uuidString)
        #expect(response.response.additionalResponse?["offlineID"] == id.uuidString)
        let merchantCopy = (response.paymentReceipt?.first?.outputContent.outputText ?? []).map(\.text)
        #expect(merchantCopy.contains { $0.contains("key=offlineID") && $0.contains(id.uuidString) })

        // Asked again while still offline: the same answer, nothing stored twice.
        let again = try await Self.perform(terminal, "31.00", serviceID: "SF1")
        #expect(again.poiData.poiTransactionID.transactionID == id.uuidString)
        #expect(try await terminal.offline.list().payments.count == 1)

        outage.comeBack()
        try await terminal.offline.forward()
        let outcome = try #require(try await terminal.offline.list().payments.first?.forwarded)
        #expect(outcome.approved)
        let sales = try await TerminalAPIPerformTests.sales(on: terminal).filter { $0.kind == .sale }
        #expect(sales.map(\.id) == [outcome.transactionID])
        #expect(sales.first?.approvedAmount == 31_00)
        #expect(sales.first?.externalID == "21f1268f-9126-4bce-b127-9c2d5ffa024e")
        try await sandbox.close(terminal)
    }

    @Test func withoutStoreAndForwardAnUnreachableGatewayAnswersUnreachableHostAndStoresNothing() async throws
    {
        let sandbox = try await Sandbox()
        let (terminal, outage) = try await Self.terminal(sandbox, storeAndForward: false)
        outage.goDown(reaching: "/nothing")
        let response = try await Self.perform(terminal, "31.00", serviceID: "SF2")
        #expect(response.response.result == .failure)
        #expect(response.response.errorCondition == .unreachableHost)
        #expect(response.paymentReceipt == [])
        #expect(try await terminal.offline.list().payments.isEmpty)
        try await sandbox.close(terminal)
    }

    @Test func aSaleOverTheMerchantsOfflineLimitAnswersUnreachableHostNamingTheLimit() async throws {
        let sandbox = try await Sandbox()
        let (terminal, outage) = try await Self.terminal(sandbox, storeAndForward: true)
        await terminal.offline.setPolicy(OfflinePolicy(maximumPaymentAmount: 37_00))
        outage.goDown(reaching: "/nothing")
        #expect(try await Self.perform(terminal, "37.00", serviceID: "SF3").response.result == .success)
        let over = try await Self.perform(terminal, "37.01", serviceID: "SF4").response
        #expect(over.result == .failure && over.errorCondition == .unreachableHost)
        #expect(over.additionalResponse?.message?.contains("largest offline payment") == true)
        #expect(try await terminal.offline.list().payments.count == 1)
        try await sandbox.close(terminal)
    }

    @Test func aRefundIsNeverStoredOffline() async throws {
        let sandbox = try await Sandbox()
        let (terminal, outage) = try await Self.terminal(sandbox, storeAndForward: true)
        outage.goDown(reaching: "/nothing")
        let refund = try TerminalAPIPerformTests.paymentResponse(
            try await terminal.perform(terminalAPIRequest: 
                TerminalAPIPerformTests.payment("5.00", serviceID: "SF5", paymentType: "Refund")))
        #expect(refund.response.result == .failure && refund.response.errorCondition == .unreachableHost)
        #expect(try await terminal.offline.list().payments.isEmpty)
        try await sandbox.close(terminal)
    }
}
