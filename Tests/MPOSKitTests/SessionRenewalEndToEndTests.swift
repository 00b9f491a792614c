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

    /// A session renewed by itself is an online session: the offline window (24 hours by
    /// default) runs from the renewal, not from the app's login a day earlier.
    @Test func aRenewedSessionStartsTheOfflineWindowAgain() async throws {
        let clock = ManualDateSource(start: Date(timeIntervalSince1970: 1_795_000_000))
        let sandbox = try await Sandbox(gatewayClock: clock)
        let outage = ChaosTransport()
        let terminal = try await sandbox.terminal(transport: outage, clock: ShortWaitsPassClock(upTo: .seconds(8)))
        let sale = PaymentParameters(amount: 12_11, currency: .eur, offlineAllowed: true)
        #expect(try await terminal.sale(sale).status == .approved)

        clock.advance(by: 23 * 3600)
        #expect(try await terminal.sale(PaymentParameters(amount: 12_12, currency: .eur)).status == .approved)
        #expect(await terminal.client.renewals == 1)

        clock.advance(by: 2 * 3600)  // 25 hours after the login, 2 after the renewal
        outage.goDown(reaching: "/nothing")
        let offline = try await terminal.sale(PaymentParameters(amount: 12_13, currency: .eur, offlineAllowed: true))
        #expect(offline.status == .approvedOffline, "\(offline.error?.message ?? "")")
        outage.comeBack()
        try await sandbox.close(terminal)
    }
}
