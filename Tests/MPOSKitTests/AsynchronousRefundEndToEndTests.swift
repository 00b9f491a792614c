import Foundation
import GatewayAPI
import MPOSCore
import SandboxGateway
import TerminalAPI
import Testing

@testable import MPOSKit

/// Refunds of a merchant with asynchronous refunds, through the SDK against the real sandbox
/// gateway and a simulated reader over TCP: the refund comes back `pending` with its id, the
/// journal holds it as finished (no retry, no reversal), a lookup later shows the outcome, and
/// the Terminal API answers as Adyen's SDK does for a refund only received.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct AsynchronousRefundEndToEndTests {
    /// A sandbox on a manual gateway clock whose merchant asked for asynchronous refunds.
    static func sandbox() async throws -> (Sandbox, ManualDateSource) {
        let clock = ManualDateSource(start: Date())
        let sandbox = try await Sandbox(gatewayClock: clock)
        try await sandbox.gateway.setAsynchronousRefunds(merchantID: sandbox.credentials.merchantID, true)
        return (sandbox, clock)
    }

    @Test func aRefundIsPendingWithItsIdAndALaterLookupShowsItApproved() async throws {
        let (sandbox, clock) = try await Self.sandbox()
        let terminal = try await sandbox.terminal()
        let sale = try await terminal.sale(PaymentParameters(amount: 42_00, currency: .eur))
        #expect(sale.status == .approved)

        let refund = try await terminal.refund(transactionID: try #require(sale.transactionID), amount: 12_00)
        #expect(refund.status == .pending)
        #expect(refund.kind == .refund && refund.approvedAmount == 0 && refund.error == nil)
        let id = try #require(refund.transactionID)
        // Finished in the journal: nothing for recovery to retry or reverse.
        let entry = try #require(try PaymentJournal(path: sandbox.journalPath).entry(key: refund.idempotencyKey))
        #expect(entry.state == .finished && entry.outcome == .pending)
        #expect(try PaymentJournal(path: sandbox.journalPath).unfinished().isEmpty)
        #expect(try await terminal.reports.transaction(id).status == .pending)

        clock.advance(by: 5)
        try await sandbox.gateway.settlePendingRefunds()
        let later = try await terminal.reports.transaction(id)
        #expect(later.status == .approved && later.approvedAmount == 12_00)
        try await sandbox.close(terminal)
    }

    @Test func theTerminalAPIAnswersARefundAsReceivedWithoutAnAcquirerResponseCode() async throws {
        let (sandbox, _) = try await Self.sandbox()
        let terminal = try await TerminalAPIPerformTests.terminal(sandbox)
        let payment = try TerminalAPIPerformTests.paymentResponse(
            try await terminal.perform(terminalAPIRequest: TerminalAPIPerformTests.payment("16.00", serviceID: "A1")))
        let id = payment.poiData.poiTransactionID.transactionID
        // A part of the amount: a refund, not a void.
        let reply = try await terminal.perform(terminalAPIRequest: 
            TerminalAPIPerformTests.request(
                "Reversal", serviceID: "A2",
                body:
                    #""ReversalRequest": {"OriginalPOITransaction": {"POITransactionID": {"TransactionID": "\#(id)", "TimeStamp": "2024-01-01T00:00:00Z"}}, "ReversalReason": "MerchantCancel", "ReversedAmount": 6.00}"#
            ))
        let reversal = try #require(try NexoCoder.decodeResponse(reply).reversalResponse)
        #expect(reversal.response.result == .success)
        #expect(reversal.response.additionalResponse?.message == NexoOutcome.receivedMessage)
        #expect(reversal.response.additionalResponse?.acquirerResponseCode == nil)
        #expect(reversal.reversedAmount == nil)
        let refundID = try #require(reversal.poiData?.poiTransactionID.transactionID)
        let refund = try await terminal.reports.transaction(try #require(TransactionID(rawValue: refundID)))
        #expect(refund.status == .pending && refund.requestedAmount == 6_00)

        // An unreferenced refund is received the same way.
        let unreferenced = try TerminalAPIPerformTests.paymentResponse(
            try await terminal.perform(terminalAPIRequest: 
                TerminalAPIPerformTests.payment("3.00", serviceID: "A3", paymentType: "Refund")))
        #expect(unreferenced.response.result == .success)
        #expect(unreferenced.response.additionalResponse?.message == NexoOutcome.receivedMessage)
        #expect(unreferenced.response.additionalResponse?.acquirerResponseCode == nil)
        try await sandbox.close(terminal)
    }

    @Test func aSynchronousRefundCarriesTheAcquirerResponseCode() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await TerminalAPIPerformTests.terminal(sandbox)
        let payment = try TerminalAPIPerformTests.paymentResponse(
            try await terminal.perform(terminalAPIRequest: TerminalAPIPerformTests.payment("16.00", serviceID: "B1")))
        let id = payment.poiData.poiTransactionID.transactionID
        let reply = try await terminal.perform(terminalAPIRequest: 
            TerminalAPIPerformTests.request(
                "Reversal", serviceID: "B2",
                body:
                    #""ReversalRequest": {"OriginalPOITransaction": {"POITransactionID": {"TransactionID": "\#(id)", "TimeStamp": "2024-01-01T00:00:00Z"}}, "ReversalReason": "MerchantCancel", "ReversedAmount": 6.00}"#
            ))
        let reversal = try #require(try NexoCoder.decodeResponse(reply).reversalResponse)
        #expect(reversal.response.result == .success)
        #expect(reversal.response.additionalResponse?.acquirerResponseCode == "00")
        #expect(reversal.reversedAmount == NexoAmount(Decimal(string: "6")!))
        try await sandbox.close(terminal)
    }
}
