import Foundation
import GatewayAPI
import MPOSCore
import MPOSKitNIO
import MPOSTestSupport
import ReaderLinkTCP
import Testing

@testable import MPOSKit

/// The ECP seed's reset "to help with changing users": another user logs in on the same
/// terminal, and what the previous one left is never lost nor shown to another merchant.
@Suite(.serialized, .timeLimit(.minutes(2))) struct SwitchingUsersTests {
    static func secondMerchant(_ sandbox: Sandbox) async throws -> GatewayCredentials {
        let other = try await sandbox.gateway.environment.accounts.createMerchant(
            name: "Evening Kiosk", user: "evening-kiosk", email: "evening@example.test", password: "Evening2026")
        return .login(user: other.user, password: other.password)
    }

    @Test func anotherMerchantsUserTakesOverASettledTerminal() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let first = try await terminal.sale(PaymentParameters(amount: 7_00, currency: .eur))
        #expect(first.status == .approved)

        let released = try await terminal.reset(switchingTo: try await Self.secondMerchant(sandbox))
        #expect(released)
        #expect(await terminal.status.isLoggedIn == false)
        try await terminal.login()
        #expect(try await terminal.accounts.merchantInfo().name == "Evening Kiosk")
        try await terminal.reader.connect(
            transport: try await TCPTransport.connect(host: "127.0.0.1", port: sandbox.server.port),
            secret: Sandbox.secret)
        let second = try await terminal.sale(PaymentParameters(amount: 9_00, currency: .eur))
        #expect(second.status == .approved)

        // The new merchant sees its own sale only, in the gateway and in the journal.
        let page = try await terminal.reports.searchTransactions()
        #expect(page.items.map(\.id) == [try #require(second.transactionID)])
        let entries = try PaymentJournal(path: sandbox.journalPath).all()
        #expect(entries.map(\.gatewayTransactionID) == [second.transactionID])
        let owner = try #require(try JournalSummary.read(path: sandbox.journalPath).owner)
        #expect(owner.merchantID != sandbox.credentials.merchantID)
        try await sandbox.close(terminal)
    }

    @Test func unfinishedWorkStaysWithItsMerchantUntilItIsFinished() async throws {
        let sandbox = try await Sandbox()
        let evening = try await Self.secondMerchant(sandbox)
        let morning = GatewayCredentials.login(user: sandbox.credentials.user, password: sandbox.credentials.password)
        // The app dies with a sale sent and unanswered.
        let transport = DroppingTransport()
        let dead = try await sandbox.terminal(transport: transport, clock: ManualClock())
        transport.dropAnswers(to: GatewayPaths.authorizeCard, thenBlock: true)
        let abandoned = Task { try await dead.sale(PaymentParameters(amount: 12_34, currency: .eur)) }
        while try PaymentJournal(path: sandbox.journalPath).unfinished().isEmpty || !transport.isBlocked {
            try await Task.sleep(for: .milliseconds(20))
        }

        // Restarted, the terminal is handed to another merchant's user: the journal stays bound.
        let terminal = try PaymentTerminal(
            environment: sandbox.gateway.baseURL, credentials: morning, journalPath: sandbox.journalPath,
            transport: NIOGatewayTransport())
        #expect(try await terminal.reset(switchingTo: evening) == false)
        await #expect(throws: MPOSError.journalOwnedElsewhere) { try await terminal.login() }
        #expect(try PaymentJournal(path: sandbox.journalPath).unfinished().count == 1)

        // The morning user finishes it; then the terminal is free for the evening merchant.
        #expect(try await terminal.reset(switchingTo: morning) == false)
        let recovered = try await terminal.login()
        #expect(recovered.count == 1)
        #expect(try await terminal.reset(switchingTo: evening) == true)
        try await terminal.login()
        #expect(try await terminal.reports.searchTransactions().totalCount == 0)
        #expect(try PaymentJournal(path: sandbox.journalPath).all().isEmpty)
        abandoned.cancel()
        try await sandbox.close(terminal)
    }
}
