import Foundation
import GatewayAPI
import MPOSCore
import SandboxGateway
import Testing

@Suite(.timeLimit(.minutes(2))) struct TransactionFiltersTests {
    @Test func badFiltersAreRefusedWithATypedError() throws {
        #expect(throws: PaymentRuleViolation.self) { try TransactionFilters(kind: "gift") }
        #expect(throws: PaymentRuleViolation.self) { try TransactionFilters(minimumAmount: -1) }
        #expect(throws: PaymentRuleViolation.self) { try TransactionFilters(minimumAmount: 10, maximumAmount: 9) }
        for lastFour in ["123", "12345", "12a4", "１２３４"] {
            #expect(throws: PaymentRuleViolation.self) { try TransactionFilters(cardLastFour: lastFour) }
        }
        #expect(try TransactionFilters(kind: "refund", minimumAmount: 5, maximumAmount: 5, cardLastFour: "0119").kind == .refund)
    }

    @Test func theSearchRouteFiltersByKindAmountAndCardLastFour() async throws {
        try await GatewayHarness.with { harness in
            let token = try await harness.login()
            let small = try await harness.cardSale(12_00, token: token)
            _ = try await harness.cardSale(55_00, token: token)
            _ = try await PaymentHTTPTests.post(
                harness, GatewayPaths.transaction(GatewayPaths.refund, id: small), RefundRequest(amount: 2_00), token: token)
            let sale = try await harness.send(.get, GatewayPaths.transaction(id: small), token: token).decode(Transaction.self)
            let lastFour = String(try #require(sale.card?.maskedPAN).suffix(4))

            func search(_ request: TransactionSearchRequest) async throws -> GatewayHarness.Reply {
                try await harness.send(.post, GatewayPaths.searchTransactions, json: request, token: token)
            }
            func amounts(_ request: TransactionSearchRequest) async throws -> [Int64] {
                try await search(request).decode(TransactionPage.self).items.map(\.requestedAmount).sorted()
            }
            #expect(try await amounts(TransactionSearchRequest(minAmount: 50_00)) == [55_00])
            #expect(try await amounts(TransactionSearchRequest(minAmount: 2_00, maxAmount: 12_00)) == [2_00, 12_00])
            #expect(try await amounts(TransactionSearchRequest(kind: .refund)) == [2_00])
            #expect(try await amounts(TransactionSearchRequest(kind: .sale, cardLastFour: lastFour)) == [12_00, 55_00])
            let otherFour = lastFour == "0000" ? "1111" : "0000"
            #expect(try await amounts(TransactionSearchRequest(cardLastFour: otherFour)).isEmpty)
            #expect(try await search(TransactionSearchRequest(cardLastFour: "12a4")).status == 400)
            #expect(try await search(TransactionSearchRequest(minAmount: 9, maxAmount: 8)).status == 400)
        }
    }

    @Test func theDashboardListAppliesTheSameFilters() async throws {
        try await GatewayHarness.with { harness in
            let token = try await harness.login()
            let small = try await harness.cardSale(13_00, token: token)
            let large = try await harness.cardSale(66_00, token: token)
            let browser = try await DashboardBrowser.signedIn(harness)
            let page = DashboardBrowser.text(try await browser.get("/dashboard/transactions?min=5000&kind=sale"))
            #expect(page.contains(large) && !page.contains(small))
            let today = String(ISO8601DateFormatter().string(from: harness.clock.now()).prefix(10))
            let dated = DashboardBrowser.text(try await browser.get("/dashboard/transactions?from=\(today)&to=\(today)"))
            #expect(dated.contains(large) && dated.contains(small))
            #expect(try await browser.get("/dashboard/transactions?last4=12").status == 400)
            #expect(try await browser.get("/dashboard/transactions?from=yesterday").status == 400)
        }
    }
}
