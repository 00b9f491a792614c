import Foundation
import MPOSCore
import SandboxGateway
import Testing

@testable import MPOSKit

/// The void window end to end, on the gateway's manual clock: the Heft seed voids "only within
/// the same day as the transaction was made", the Accept seed reverses only "before 24 hours has
/// passed"; after that the way back is a refund.
@Suite(.serialized, .timeLimit(.minutes(2))) struct VoidWindowEndToEndTests {
    @Test func aSaleIsVoidedOnItsOwnDayAndRefundedTheNext() async throws {
        // 2026-12-07 20:00 UTC.
        let clock = ManualDateSource(start: Date(timeIntervalSince1970: 1_796_630_400 + 12 * 3_600))
        let sandbox = try await Sandbox(gatewayClock: clock)
        let terminal = try await sandbox.terminal()

        let first = try await terminal.sale(PaymentParameters(amount: 12_38, currency: .eur))
        let voided = try await terminal.void(transactionID: try #require(first.transactionID))
        #expect(voided.status == .approved && voided.kind == .saleVoid)

        let second = try await terminal.sale(PaymentParameters(amount: 12_39, currency: .eur))
        let id = try #require(second.transactionID)
        // Four hours on it is the next day (UTC): no void any more, and nothing changed.
        clock.advance(by: 4 * 3_600)
        let late = try await terminal.void(transactionID: id)
        #expect(late.status == .failed)
        #expect(late.error?.code == MPOSError.Code.gatewayRefused)
        #expect(late.error?.message.contains("own day") == true)
        #expect(try await terminal.reports.transaction(id).status == .approved)

        let refunded = try await terminal.refund(transactionID: id, amount: nil)
        #expect(refunded.status == .approved && refunded.kind == .refund)
        try await sandbox.close(terminal)
    }
}
