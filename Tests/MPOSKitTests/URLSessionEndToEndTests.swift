import Foundation
import GatewayAPI
import Testing

@testable import MPOSKit

/// The SDK's default gateway transport (`URLSession`, what an iOS app uses) through a whole
/// sale and through a lost answer; the other end-to-end suites run over SwiftNIO.
@Suite(.serialized, .timeLimit(.minutes(2))) struct URLSessionEndToEndTests {
    @Test func approvesASale() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal(transport: URLSessionGatewayTransport())
        let result = try await terminal.sale(PaymentParameters(amount: 12_34, currency: .eur))
        #expect(result.status == .approved)
        #expect(result.authorizationCode?.count == 6)
        try await sandbox.close(terminal)
    }

    @Test func aLostAnswerIsResolvedByKeyWithoutASecondCharge() async throws {
        let sandbox = try await Sandbox()
        let transport = DroppingTransport(base: URLSessionGatewayTransport())
        let terminal = try await sandbox.terminal(transport: transport)
        transport.dropAnswers(to: GatewayPaths.authorizeCard)
        let result = try await terminal.sale(PaymentParameters(amount: 12_34, currency: .eur))
        #expect(result.status == .approved && result.recovered)
        #expect(transport.sent.filter { $0 == "POST \(GatewayPaths.authorizeCard)" }.count == 1)
        let page = try await terminal.reports.searchTransactions()
        #expect(page.items.filter { $0.kind == .sale }.count == 1)
        try await sandbox.close(terminal)
    }
}
