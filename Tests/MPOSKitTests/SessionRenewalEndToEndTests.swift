import Foundation
import GatewayAPI
import MPOSCore
import SandboxGateway
import Testing

@testable import MPOSKit

/// A terminal left idle past the sandbox's session lifetime (15 minutes) goes on taking
/// payments and reading reports: its session renews itself at the first request that finds it
/// lapsed. The gateway's clock is a manual one, so the quarter of an hour passes at once.
@Suite(.timeLimit(.minutes(2))) struct SessionRenewalEndToEndTests {
    @Test func anIdleTerminalKeepsSellingAfterItsSessionLapsed() async throws {
        let clock = ManualDateSource(start: Date(timeIntervalSince1970: 1_795_000_000))
        let sandbox = try await Sandbox(gatewayClock: clock)
        let terminal = try await sandbox.terminal()
        let first = try await terminal.sale(PaymentParameters(amount: 12_01, currency: .eur))
        #expect(first.status == .approved)

        clock.advance(by: 16 * 60)
        let second = try await terminal.sale(PaymentParameters(amount: 12_02, currency: .eur))
        #expect(second.status == .approved, "\(String(describing: second.error))")

        clock.advance(by: 16 * 60)
        let page = try await terminal.reports.searchTransactions(TransactionSearchRequest(pageSize: 10))
        #expect(Set(page.items.map(\.requestedAmount)) == [12_01, 12_02])

        clock.advance(by: 16 * 60)
        let second_id = try #require(second.transactionID)
        let refund = try await terminal.refund(transactionID: second_id, amount: 2_02)
        #expect(refund.status == .approved, "\(String(describing: refund.error))")
        try await sandbox.close(terminal)
    }
}
