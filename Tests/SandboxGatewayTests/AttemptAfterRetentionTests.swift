import Foundation
import GatewayAPI
import MPOSCore
import SandboxGateway
import Testing

/// An attempt is found for as long as its payment exists: three days on, with the 24-hour
/// answer cache purged, the lookup by idempotency key still finds a sale and its follow-ups,
/// and a resend under the same key charges nothing again.
@Suite(.timeLimit(.minutes(2)), .postgresServer) struct AttemptAfterRetentionTests {
    static let threeDays: TimeInterval = 3 * 24 * 60 * 60

    /// Looks `key` up and decodes the transaction it answers with.
    static func lookup(_ harness: GatewayHarness, _ key: String, token: String) async throws -> Transaction {
        let reply = try await harness.send(.get, GatewayPaths.attempt(key: key), token: token)
        #expect(reply.status == 200, "attempt \(key): \(reply.status) \(String(decoding: reply.body, as: UTF8.self))")
        return try reply.decode(Transaction.self)
    }

    @Test(arguments: GatewayTestEngine.allCases)
    func aSaleAndItsFollowUpsAreFoundThreeDaysOn(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let token = try await harness.login()
            let visa = SimulatedTerminal.card("visa-credit")
            func post<T: Encodable>(_ path: String, _ value: T, key: String) async throws -> Transaction {
                let reply = try await PaymentHTTPTests.post(harness, path, value, token: token, key: key)
                #expect(reply.status == 200)
                return try reply.decode(Transaction.self)
            }
            let sale = try await post(
                GatewayPaths.authorizeCard, try PaymentHTTPTests.authorize(visa, amount: 20_50, captureMode: .tipAdjustment),
                key: "sale-1")
            _ = try await post(
                GatewayPaths.transaction(GatewayPaths.tipAdjust, id: sale.id.rawValue), TipAdjustRequest(tipAmount: 3_00),
                key: "tip-1")
            let auth = try await post(
                GatewayPaths.authorizeCard, try PaymentHTTPTests.authorize(visa, amount: 50_00, kind: .authorization),
                key: "auth-1")
            let capture = try await post(
                GatewayPaths.transaction(GatewayPaths.capture, id: auth.id.rawValue), CaptureRequest(amount: 40_00),
                key: "capture-1")
            let refund = try await post(
                GatewayPaths.transaction(GatewayPaths.refund, id: auth.id.rawValue), RefundRequest(amount: 15_00),
                key: "refund-1")
            let reversed = try await post(
                GatewayPaths.authorizeCard, try PaymentHTTPTests.authorize(visa, amount: 7_77), key: "sale-2")
            _ = try await post(
                GatewayPaths.transaction(GatewayPaths.reverse, id: reversed.id.rawValue),
                ReverseRequest(reason: .merchantRequest), key: "reverse-1")
            let cash = try await post(
                GatewayPaths.cashPayment, CashPaymentRequest(amount: 9_99, currency: .eur), key: "cash-1")

            harness.clock.advance(by: Self.threeDays)
            _ = try await harness.gateway.runMaintenance()
            let fresh = try await harness.login()

            let foundSale = try await Self.lookup(harness, "sale-1", token: fresh)
            #expect(foundSale.id == sale.id && foundSale.kind == .sale && foundSale.status == .approved)
            #expect(foundSale.tipAmount == 3_00)
            let foundTip = try await Self.lookup(harness, "tip-1", token: fresh)
            #expect(foundTip.id == sale.id, "a tip adjustment answers the sale")
            #expect(try await Self.lookup(harness, "auth-1", token: fresh).id == auth.id)
            #expect(try await Self.lookup(harness, "capture-1", token: fresh).id == capture.id)
            let foundRefund = try await Self.lookup(harness, "refund-1", token: fresh)
            #expect(foundRefund.id == refund.id && foundRefund.kind == .refund)
            let foundReversal = try await Self.lookup(harness, "reverse-1", token: fresh)
            #expect(foundReversal.id == reversed.id && foundReversal.status == .reversed, "a reversal answers the original")
            #expect(try await Self.lookup(harness, "cash-1", token: fresh).id == cash.id)
            #expect(try await harness.send(.get, GatewayPaths.attempt(key: "never-used"), token: fresh).status == 404)
        }
    }

    /// The ledger keeps the key per merchant: three days on, another merchant asking for the
    /// first one's key learns nothing, and a resend under it charges that merchant, not the first.
    @Test(arguments: GatewayTestEngine.allCases)
    func anotherMerchantFindsNothingUnderTheKeyThreeDaysOn(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let token = try await harness.login()
            let request = try PaymentHTTPTests.authorize(SimulatedTerminal.card("visa-credit"), amount: 6_54)
            let first = try await PaymentHTTPTests.post(
                harness, GatewayPaths.authorizeCard, request, token: token, key: "shared-key")
            let sale = try first.decode(Transaction.self)

            harness.clock.advance(by: Self.threeDays)
            _ = try await harness.gateway.runMaintenance()
            let other = try await harness.gateway.environment.accounts.createMerchant(
                name: "Merchant B", user: "other-merchant", email: "other@example.org")
            let otherToken = try await harness.login(user: other.user, password: other.password)
            #expect(try await harness.send(.get, GatewayPaths.attempt(key: "shared-key"), token: otherToken).status == 404)
            let theirs = try await PaymentHTTPTests.post(
                harness, GatewayPaths.authorizeCard,
                try PaymentHTTPTests.authorize(SimulatedTerminal.card("mastercard-2series"), amount: 3_21),
                token: otherToken, key: "shared-key")
            #expect(try theirs.decode(Transaction.self).id != sale.id)
            // The first merchant still finds its own sale under the key.
            #expect(try await Self.lookup(harness, "shared-key", token: try await harness.login()).id == sale.id)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases)
    func aResendThreeDaysOnChargesNothingAgain(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let token = try await harness.login()
            let request = try PaymentHTTPTests.authorize(SimulatedTerminal.card("mastercard-2series"), amount: 4_56)
            let first = try await PaymentHTTPTests.post(
                harness, GatewayPaths.authorizeCard, request, token: token, key: "weekend")
            let sale = try first.decode(Transaction.self)
            #expect(sale.status == .approved)

            harness.clock.advance(by: Self.threeDays)
            _ = try await harness.gateway.runMaintenance()
            let fresh = try await harness.login()
            let again = try await PaymentHTTPTests.post(
                harness, GatewayPaths.authorizeCard, request, token: fresh, key: "weekend")
            #expect(again.status == 200)
            #expect(try again.decode(Transaction.self).id == sale.id)
            #expect(again.header(GatewayHeaders.idempotentReplayed) == "true")
            let sales = try await harness.gateway.environment.store.database.read { db in
                try db.fetchValue(Int.self, sql: "SELECT COUNT(*) FROM payment_transaction WHERE kind = 'sale'")
            }
            #expect(sales == 1)
        }
    }
}
