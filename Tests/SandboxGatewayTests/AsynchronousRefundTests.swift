import Foundation
import GRDB
import GatewayAPI
import Hummingbird
import MPOSCore
import MPOSTestSupport
import SandboxGateway
import Synchronization
import Testing

/// Asynchronous refunds (the Adyen seed's "Handle a refund"): with the merchant's setting on,
/// a refund is answered at once as received (202, status `pending`), the gateway decides it
/// later on its injected clock, moves the original's refunded amount only then, and posts the
/// outcome to the merchant's webhook, received here by a real route on the loopback server.
@Suite(.timeLimit(.minutes(2)))
struct AsynchronousRefundTests {
    static let secret = "whsec-refunds-0123456789"

    /// Webhook bodies the gateway posted to `/refund-hook`.
    final class Received: Sendable {
        let payloads = Mutex<[WebhookPayload]>([])

        /// A route on the gateway itself that records each webhook it is sent.
        var routes: @Sendable (Router<GatewayRequestContext>, GatewayEnvironment) -> Void {
            { [self] router, _ in
                router.post("/refund-hook") { request, _ in
                    let body = try await request.body.collect(upTo: 1 << 20)
                    let payload = try GatewayJSON.makeDecoder().decode(
                        WebhookPayload.self, from: Data(body.readableBytesView))
                    self.payloads.withLock { $0.append(payload) }
                    return Response(status: .ok)
                }
            }
        }

        /// Waits until a webhook for `id` in `state` arrived and returns every one for `id`.
        func wait(for id: TransactionID, state: FinancialStatus) async -> [WebhookPayload] {
            while !Task.isCancelled {
                let all = payloads.withLock { $0.filter { $0.uniqueID == id.rawValue } }
                if all.contains(where: { $0.state == state }) { return all }
                await Task.yield()
            }
            return []
        }
    }

    /// A gateway like ``GatewayHarness``'s, with no background settlement pass (the tests
    /// settle by ``RunningGateway/settlePendingRefunds()`` after moving the clock) unless a
    /// clock for it is given.
    static func start(
        clock: ManualDateSource, directory: URL, credentials: SandboxCredentials? = nil,
        settlementClock: ManualClock? = nil, routes: (@Sendable (Router<GatewayRequestContext>, GatewayEnvironment) -> Void)? = nil
    ) async throws -> GatewayHarness {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = SandboxGatewayConfiguration(
            databasePath: directory.appendingPathComponent("gateway.sqlite").path, now: clock.dateProvider,
            passwordHashRounds: 1_000, logLevel: .critical, additionalRoutes: routes)
        configuration.asynchronousRefundDelay = 5
        configuration.refundSettlementInterval = settlementClock == nil ? nil : .seconds(1)
        if let settlementClock { configuration.refundSettlementClock = settlementClock }
        let gateway = try await SandboxGateway.start(configuration)
        return GatewayHarness(
            gateway: gateway, clock: clock, directory: directory,
            credentials: try #require(credentials ?? gateway.credentials))
    }

    /// Starts a gateway on a fresh directory, runs `body`, and stops it whether `body` throws or not.
    static func with(
        _ received: Received? = nil, settlementClock: ManualClock? = nil,
        _ body: (GatewayHarness) async throws -> Void
    ) async throws {
        let harness = try await start(
            clock: ManualDateSource(), directory: newDirectory(), settlementClock: settlementClock,
            routes: received?.routes)
        do { try await body(harness) } catch {
            await harness.stop()
            throw error
        }
        await harness.stop()
    }

    static func newDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("async-refunds-\(UUID().uuidString)")
    }

    /// Turns asynchronous refunds on, with the webhook posted to the gateway's own `/refund-hook`.
    static func turnOn(_ harness: GatewayHarness, token: String) async throws {
        let reply = try await harness.send(
            .put, GatewayPaths.webhookConfig,
            json: WebhookConfig(
                callbackURL: "http://127.0.0.1:\(harness.gateway.port)/refund-hook", secret: secret,
                asynchronousRefunds: true),
            token: token)
        #expect(reply.status == 200)
        #expect(try reply.decode(WebhookConfigResponse.self).asynchronousRefunds)
    }

    /// An approved card sale of `amount`.
    static func sale(_ harness: GatewayHarness, amount: Int64, token: String) async throws -> Transaction {
        let reply = try await PaymentHTTPTests.post(
            harness, GatewayPaths.authorizeCard,
            try PaymentHTTPTests.authorize(SimulatedTerminal.card("visa-credit"), amount: amount), token: token)
        let sale = try reply.decode(Transaction.self)
        #expect(sale.status == .approved)
        return sale
    }

    static func refund(
        _ harness: GatewayHarness, _ sale: Transaction, amount: Int64?, token: String,
        key: String = PaymentHTTPTests.key()
    ) async throws -> GatewayHarness.Reply {
        try await PaymentHTTPTests.post(
            harness, GatewayPaths.transaction(GatewayPaths.refund, id: sale.id.rawValue),
            RefundRequest(amount: amount), token: token, key: key)
    }

    static func lookup(_ harness: GatewayHarness, _ id: TransactionID, token: String) async throws -> Transaction {
        try await harness.send(.get, GatewayPaths.transaction(id: id.rawValue), token: token)
            .decode(Transaction.self)
    }

    /// The original's refunded amount as the ledger holds it.
    static func refunded(_ harness: GatewayHarness, _ id: TransactionID) async throws -> Int64? {
        try await harness.gateway.environment.store.database.read { db in
            try db.fetchValue(
                Int64.self, sql: "SELECT amount_refunded FROM payment_transaction WHERE id = ?", arguments: [id.rawValue])
        }
    }

    static func turnover(_ harness: GatewayHarness, token: String) async throws -> Int64 {
        let reply = try await harness.send(
            .post, GatewayPaths.statistics,
            json: StatisticsRequest(
                from: harness.clock.now().addingTimeInterval(-86_400), to: harness.clock.now().addingTimeInterval(60),
                grouping: .month),
            token: token)
        return try reply.decode(StatisticsResponse.self).buckets.reduce(0) { $0 + $1.turnover }
    }

    @Test func aRefundIsAcceptedAsPendingAndApprovedLaterWithTheOutcomeByWebhook() async throws {
        let received = Received()
        try await Self.with(received) { harness in
            let token = try await harness.login()
            try await Self.turnOn(harness, token: token)
            let sale = try await Self.sale(harness, amount: 40_00, token: token)

            let reply = try await Self.refund(harness, sale, amount: 15_00, token: token)
            #expect(reply.status == 202)
            let pending = try reply.decode(Transaction.self)
            #expect(pending.kind == .refund && pending.status == .pending && pending.originalID == sale.id)
            #expect(pending.approvedAmount == 0 && pending.requestedAmount == 15_00 && pending.responseCode == nil)
            // Nothing of the original moved, and reports count no refund yet.
            #expect(try await Self.refunded(harness, sale.id) == 0)
            #expect(try await Self.turnover(harness, token: token) == 40_00)
            // Not due before the delay.
            harness.clock.advance(by: 4)
            #expect(try await harness.gateway.settlePendingRefunds() == 0)
            #expect(try await Self.lookup(harness, pending.id, token: token).status == .pending)

            harness.clock.advance(by: 1)
            #expect(try await harness.gateway.settlePendingRefunds() == 1)
            let settled = try await Self.lookup(harness, pending.id, token: token)
            #expect(settled.status == .approved && settled.approvedAmount == 15_00 && settled.responseCode == "00")
            #expect(settled.batchID != nil)
            #expect(try await Self.refunded(harness, sale.id) == 15_00)
            #expect(try await Self.turnover(harness, token: token) == 40_00 - 15_00)
            let hooks = await received.wait(for: pending.id, state: .approved)
            #expect(hooks.map(\.state).contains(.pending))
            #expect(hooks.first { $0.state == .approved }?.amount == 15_00)
            // Settled once: a second pass finds nothing.
            #expect(try await harness.gateway.settlePendingRefunds() == 0)
            #expect(try await Self.refunded(harness, sale.id) == 15_00)
        }
    }

    @Test func aPendingRefundIsDeclinedForADeclineAmountOrWhenTheOriginalWasRefundedByThen() async throws {
        let received = Received()
        try await Self.with(received) { harness in
            let token = try await harness.login()
            try await Self.turnOn(harness, token: token)

            // 10.00 is the sandbox's decline amount (response code 05).
            let first = try await Self.sale(harness, amount: 25_00, token: token)
            let scenario = try await Self.refund(harness, first, amount: 10_00, token: token).decode(Transaction.self)
            #expect(scenario.status == .pending)
            // Two refunds of the whole sale are both received; the later one finds nothing left.
            let second = try await Self.sale(harness, amount: 60_00, token: token)
            let whole = try await Self.refund(harness, second, amount: nil, token: token).decode(Transaction.self)
            harness.clock.advance(by: 1)
            let again = try await Self.refund(harness, second, amount: 20_00, token: token)
            #expect(again.status == 202)
            let late = try again.decode(Transaction.self)

            harness.clock.advance(by: 10)
            #expect(try await harness.gateway.settlePendingRefunds() == 3)
            let declined = try await Self.lookup(harness, scenario.id, token: token)
            #expect(declined.status == .declined && declined.responseCode == "05" && declined.approvedAmount == 0)
            #expect(try await Self.refunded(harness, first.id) == 0)
            #expect(try await Self.lookup(harness, whole.id, token: token).status == .approved)
            let refused = try await Self.lookup(harness, late.id, token: token)
            #expect(refused.status == .declined && refused.approvedAmount == 0)
            #expect(try await Self.refunded(harness, second.id) == 60_00)
            #expect(try await Self.lookup(harness, second.id, token: token).status == .refunded)
            #expect(await received.wait(for: late.id, state: .declined).last?.errorCode == refused.responseCode)
        }
    }

    @Test func refundsLeftPendingByAStoppedGatewaySettleOnceAtTheNextStart() async throws {
        let clock = ManualDateSource()
        let directory = Self.newDirectory()
        let first = try await Self.start(clock: clock, directory: directory)
        let token = try await first.login()
        try await Self.turnOn(first, token: token)
        let sale = try await Self.sale(first, amount: 30_00, token: token)
        let pending = try await Self.refund(first, sale, amount: 12_00, token: token).decode(Transaction.self)
        #expect(pending.status == .pending)
        await first.stop(removingFiles: false)

        clock.advance(by: 60)
        let second = try await Self.start(clock: clock, directory: directory, credentials: first.credentials)
        let secondToken = try await second.login()
        // The start settled it before serving; nothing is left for a pass.
        #expect(try await Self.lookup(second, pending.id, token: secondToken).status == .approved)
        #expect(try await second.gateway.settlePendingRefunds() == 0)
        await second.stop(removingFiles: false)

        let third = try await Self.start(clock: clock, directory: directory, credentials: first.credentials)
        #expect(try await Self.refunded(third, sale.id) == 12_00)
        let count = try await third.gateway.environment.store.database.read { db in
            try db.fetchValue(
                Int.self, sql: "SELECT COUNT(*) FROM payment_transaction WHERE original_id = ?", arguments: [sale.id.rawValue])
        }
        #expect(count == 1)
        await third.stop()
    }

    @Test func aRetriedRefundGetsTheSamePendingAnswerByteForByte() async throws {
        try await Self.with { harness in
            let token = try await harness.login()
            try await Self.turnOn(harness, token: token)
            let sale = try await Self.sale(harness, amount: 20_00, token: token)
            let key = PaymentHTTPTests.key()
            let first = try await Self.refund(harness, sale, amount: 5_00, token: token, key: key)
            let retry = try await Self.refund(harness, sale, amount: 5_00, token: token, key: key)
            #expect(first.status == 202 && retry.status == 202)
            #expect(first.body == retry.body)
            // Still the answer the key got once the refund is settled.
            harness.clock.advance(by: 5)
            #expect(try await harness.gateway.settlePendingRefunds() == 1)
            let late = try await Self.refund(harness, sale, amount: 5_00, token: token, key: key)
            #expect(late.status == 202 && late.body == first.body)
            #expect(try await Self.refunded(harness, sale.id) == 5_00)
        }
    }

    @Test func anUnreferencedCardRefundIsReceivedAndSettledWithTheIssuersAnswer() async throws {
        try await Self.with { harness in
            let token = try await harness.login()
            try await Self.turnOn(harness, token: token)
            let reply = try await PaymentHTTPTests.post(
                harness, GatewayPaths.authorizeCard,
                try PaymentHTTPTests.authorize(
                    SimulatedTerminal.card("visa-credit"), amount: 7_00, kind: .refundUnreferenced),
                token: token)
            #expect(reply.status == 202)
            let pending = try reply.decode(Transaction.self)
            #expect(pending.kind == .refund && pending.status == .pending && pending.authorizationCode == nil)
            #expect(pending.card?.maskedPAN == "411111******1111")
            harness.clock.advance(by: 5)
            #expect(try await harness.gateway.settlePendingRefunds() == 1)
            let settled = try await Self.lookup(harness, pending.id, token: token)
            #expect(settled.status == .approved && settled.approvedAmount == 7_00 && settled.responseCode == "00")
            #expect(settled.authorizationCode?.count == 6)
        }
    }

    @Test func theBackgroundPassSettlesDueRefundsOnItsClock() async throws {
        let settlementClock = ManualClock()
        try await Self.with(settlementClock: settlementClock) { harness in
            let token = try await harness.login()
            try await Self.turnOn(harness, token: token)
            let sale = try await Self.sale(harness, amount: 18_00, token: token)
            let pending = try await Self.refund(harness, sale, amount: nil, token: token).decode(Transaction.self)
            harness.clock.advance(by: 5)
            while try await Self.refunded(harness, sale.id) != 18_00, !Task.isCancelled {
                // One tick wakes the pass; the next once it sleeps again.
                if settlementClock.sleeperCount > 0 { settlementClock.advance(by: .seconds(1)) }
                await Task.yield()
            }
            #expect(try await Self.lookup(harness, pending.id, token: token).status == .approved)
        }
    }

    @Test func refundsAreDecidedAtOnceUntilTheMerchantAsks() async throws {
        try await Self.with { harness in
            let token = try await harness.login()
            let config = try await harness.send(.get, GatewayPaths.webhookConfig, token: token)
            #expect(try config.decode(WebhookConfigResponse.self).asynchronousRefunds == false)
            let sale = try await Self.sale(harness, amount: 20_00, token: token)
            let reply = try await Self.refund(harness, sale, amount: 5_00, token: token)
            #expect(reply.status == 200)
            #expect(try reply.decode(Transaction.self).status == .approved)
            #expect(try await Self.refunded(harness, sale.id) == 5_00)
        }
    }
}
