import EMV
import Foundation
import GatewayAPI
import MPOSCore
import MPOSTestSupport
import SandboxGateway
import Testing

/// Two gateway instances on one PostgreSQL database keep the promises one makes alone: one
/// bootstrap, one charge per idempotency key, one approval per cryptogram, sessions valid on
/// both and ended on both, follow-ups decided on the amounts the other left, the same reports.
@Suite(
    .timeLimit(.minutes(3)), .enabled(if: LocalPostgres.isInstalled, PostgresTestServer.notInstalled),
    .postgresServer)
struct CrossInstanceTests {
    /// Starts an instance on `url`.
    static func start(_ url: PostgresURL, clock: ManualDateSource) async throws -> RunningGateway {
        var configuration = SandboxGatewayConfiguration(
            host: "127.0.0.1", port: 0, now: clock.dateProvider, passwordHashRounds: 1_000, logLevel: .critical)
        configuration.databaseURL = url
        return try await SandboxGateway.start(configuration)
    }

    /// Two instances on a new database, started one after the other, as harnesses sharing the
    /// first one's bootstrap credentials; both stopped after `body`.
    static func withPair(
        clock: ManualDateSource = ManualDateSource(), _ body: (GatewayHarness, GatewayHarness) async throws -> Void
    ) async throws {
        let url = try PostgresTestServer.freshDatabase()
        let first = try await start(url, clock: clock)
        let second: RunningGateway
        do { second = try await start(url, clock: clock) } catch {
            await first.shutdown()
            throw error
        }
        let directory = FileManager.default.temporaryDirectory
        do {
            let credentials = try #require(first.credentials)
            #expect(second.credentials == nil)
            try await body(
                GatewayHarness(gateway: first, clock: clock, directory: directory, credentials: credentials),
                GatewayHarness(gateway: second, clock: clock, directory: directory, credentials: credentials))
        } catch {
            await first.shutdown()
            await second.shutdown()
            throw error
        }
        await first.shutdown()
        await second.shutdown()
    }

    /// Approved sales and their sum, read from the shared database.
    static func approvedSales(_ harness: GatewayHarness) async throws -> (count: Int, amount: Int64) {
        try await harness.gateway.environment.store.database.read { db in
            let row = try db.fetchOne(
                sql: """
                    SELECT COUNT(*) AS n, COALESCE(SUM(amount_approved), 0) AS amount FROM payment_transaction
                    WHERE kind = 'sale' AND status = 'approved'
                    """)!
            return (row["n"], row["amount"])
        }
    }

    @Test func instancesStartingTogetherBootstrapOneMerchant() async throws {
        let url = try PostgresTestServer.freshDatabase()
        let clock = ManualDateSource()
        async let a = Self.start(url, clock: clock)
        async let b = Self.start(url, clock: clock)
        let (first, second) = try await (a, b)
        let merchants = try await first.environment.store.database.read { db in
            try db.fetchValue(Int.self, sql: "SELECT COUNT(*) FROM merchant")
        }
        await first.shutdown()
        await second.shutdown()
        #expect([first.credentials, second.credentials].compactMap { $0 }.count == 1)
        #expect(merchants == 1)
        #expect(first.instanceID == second.instanceID)
    }

    @Test func oneKeySentToBothInstancesAtOnceChargesOnceAndBothAnswerTheSameBytes() async throws {
        try await Self.withPair { a, b in
            let token = try await a.login()
            let request = try PaymentHTTPTests.authorize(SimulatedTerminal.card("visa-credit"), amount: 31_17)
            let key = PaymentHTTPTests.key()
            let replies = try await withThrowingTaskGroup(of: GatewayHarness.Reply.self) { group in
                for index in 0..<8 {
                    let instance = index % 2 == 0 ? a : b
                    group.addTask {
                        try await PaymentHTTPTests.post(instance, GatewayPaths.authorizeCard, request, token: token, key: key)
                    }
                }
                return try await group.reduce(into: [GatewayHarness.Reply]()) { $0.append($1) }
            }
            #expect(replies.allSatisfy { $0.status == 200 }, "\(replies.map(\.status))")
            #expect(Set(replies.map(\.body)).count == 1)
            #expect(replies.filter { $0.header(GatewayHeaders.idempotentReplayed) == "true" }.count == 7)
            let ledger = try await Self.approvedSales(b)
            #expect(ledger.count == 1 && ledger.amount == 31_17)
        }
    }

    @Test func aReplayedCryptogramIsRefusedWhicheverInstanceSeesItFirst() async throws {
        try await Self.withPair { a, b in
            let token = try await a.login()
            let request = try ReplayedCryptogramTests.sale("discover", amount: 8_00, atc: 9, duplicateCheck: false)
            let codes = try await withThrowingTaskGroup(of: String?.self) { group in
                for index in 0..<6 {
                    let instance = index % 2 == 0 ? a : b
                    group.addTask { try await ReplayedCryptogramTests.post(instance, request, token: token).responseCode }
                }
                return try await group.reduce(into: [String?]()) { $0.append($1) }
            }
            #expect(codes.sorted { ($0 ?? "") < ($1 ?? "") } == ["00", "63", "63", "63", "63", "63"])
            #expect(try await Self.approvedSales(a).count == 1)
            // A lower ATC on a fresh KSN, on the other instance, is refused too.
            let lower = try ReplayedCryptogramTests.sale("discover", amount: 8_01, atc: 8, duplicateCheck: false)
            #expect(try await ReplayedCryptogramTests.post(b, lower, token: token).responseCode == "63")
        }
    }

    @Test func aSessionFromOneInstanceWorksOnTheOtherAndALogoutEndsItOnBoth() async throws {
        let clock = ManualDateSource()
        try await Self.withPair(clock: clock) { a, b in
            let token = try await a.login()
            #expect(try await b.send(.get, GatewayPaths.merchant, token: token).status == 200)
            #expect(try await a.send(.post, GatewayPaths.logout, token: token).status == 204)
            #expect(try await a.send(.get, GatewayPaths.merchant, token: token).status == 401)
            // The other instance read the token before the logout; past its cache's bound it
            // reads the database again and finds the session gone.
            clock.advance(by: 1.5)
            #expect(try await b.send(.get, GatewayPaths.merchant, token: token).status == 401)
        }
    }

    @Test func anExpirySlidOnOneInstanceIsNotEndedByTheOther() async throws {
        let clock = ManualDateSource()
        try await Self.withPair(clock: clock) { a, b in
            let token = try await a.login()
            #expect(try await b.send(.get, GatewayPaths.merchant, token: token).status == 200)
            // Used on the first instance only, the session's expiry moves past the second
            // instance's cached one.
            for _ in 0..<4 {
                clock.advance(by: 5 * 60)
                #expect(try await a.send(.get, GatewayPaths.merchant, token: token).status == 200)
            }
            #expect(try await b.send(.get, GatewayPaths.merchant, token: token).status == 200)
        }
    }

    @Test func refundsOfOnePaymentOnTwoInstancesNeverExceedIt() async throws {
        try await Self.withPair { a, b in
            let token = try await a.login()
            let sale = try await PaymentHTTPTests.post(
                a, GatewayPaths.authorizeCard,
                try PaymentHTTPTests.authorize(SimulatedTerminal.card("visa-credit"), amount: 12_34), token: token
            ).decode(Transaction.self)
            try #require(sale.status == .approved)
            let path = GatewayPaths.transaction(GatewayPaths.refund, id: sale.id.rawValue)
            async let first = PaymentHTTPTests.post(a, path, RefundRequest(amount: 7_00), token: token)
            async let second = PaymentHTTPTests.post(b, path, RefundRequest(amount: 7_00), token: token)
            let replies = try await [first, second]
            #expect(
                replies.map(\.status).sorted() == [200, 422],
                "\(replies.map { String(decoding: $0.body, as: UTF8.self) })")
            let id = sale.id.rawValue
            let refunded = try await b.gateway.environment.store.database.read { db in
                try db.fetchValue(
                    Int64.self, sql: "SELECT amount_refunded FROM payment_transaction WHERE id = ?", arguments: [id])
            }
            #expect(refunded == 7_00)
        }
    }

    @Test func reportsAreTheSameFromEveryInstance() async throws {
        try await Self.withPair { a, b in
            let token = try await a.login()
            for (index, card) in ["visa-credit", "amex", "discover"].enumerated() {
                let instance = index % 2 == 0 ? a : b
                let reply = try await PaymentHTTPTests.post(
                    instance, GatewayPaths.authorizeCard,
                    try PaymentHTTPTests.authorize(SimulatedTerminal.card(card), amount: Int64(5_00 + index)),
                    token: token)
                #expect(reply.status == 200)
            }
            let statistics = StatisticsRequest(
                from: a.clock.now().addingTimeInterval(-86_400), to: a.clock.now().addingTimeInterval(1),
                grouping: .day)
            let search = TransactionSearchRequest()
            let fromA = try await a.send(.post, GatewayPaths.statistics, json: statistics, token: token)
            let fromB = try await b.send(.post, GatewayPaths.statistics, json: statistics, token: token)
            #expect(fromA.status == 200 && fromA.body == fromB.body)
            #expect(try fromA.decode(StatisticsResponse.self).buckets.reduce(0) { $0 + $1.count } == 3)
            let pageA = try await a.send(.post, GatewayPaths.searchTransactions, json: search, token: token)
            let pageB = try await b.send(.post, GatewayPaths.searchTransactions, json: search, token: token)
            #expect(pageA.status == 200 && pageA.body == pageB.body)
        }
    }

    @Test func theDatabaseBuiltJSONOfATransactionIsTheAPIsOnPostgreSQL() async throws {
        try await Self.withPair { a, b in
            let token = try await a.login()
            let sale = try await PaymentHTTPTests.post(
                a, GatewayPaths.authorizeCard,
                try PaymentHTTPTests.authorize(SimulatedTerminal.card("amex"), amount: 17_45, descriptor: "Corner Cafe"),
                token: token)
            let id = try sale.decode(Transaction.self).id.rawValue
            let merchant = a.credentials.merchantID
            let built = try await b.gateway.environment.store.database.read { db in
                try ReportingReference.transactionJSON(db, merchant: merchant, id: id)
            }
            let api = try await b.send(.get, GatewayPaths.transaction(id: id), token: token).decode(Transaction.self)
            let decoded = try GatewayJSON.makeDecoder().decode(Transaction.self, from: Data(try #require(built).utf8))
            #expect(decoded == api)
        }
    }
}
