import Foundation
import GatewayAPI
import GRDB
import MPOSTestSupport
import Testing

@testable import SandboxGateway

/// The webhook outbox on PostgreSQL, where several gateway instances share one database:
/// each event is delivered once, whichever instance committed it and whichever claims it.
@Suite(
    .timeLimit(.minutes(3)), .enabled(if: LocalPostgres.isInstalled, PostgresTestServer.notInstalled), .postgresServer)
struct PostgresWebhookOutboxTests {
    @Test func aClaimIsHeldForItsLeaseAndThenTakenOver() async throws {
        try await PostgresTestServer.withDatabase { database in
            try await WebhookOutboxScenarios.aClaimIsHeldForItsLeaseAndThenTakenOver(
                database, at: Date(timeIntervalSince1970: 1_800_000_000))
        }
    }

    @Test func aFailedAttemptIsDueAgainAtItsRetry() async throws {
        try await PostgresTestServer.withDatabase { database in
            try await WebhookOutboxScenarios.aFailedAttemptIsDueAgainAtItsRetry(
                database, at: Date(timeIntervalSince1970: 1_800_000_000))
        }
    }

    @Test func claimsRacingFromTwoInstancesTakeEachEventOnce() async throws {
        let url = try PostgresTestServer.freshDatabase()
        let first = try await PostgresGatewayDatabase(url: url)
        let second = try await PostgresGatewayDatabase(url: url)
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        let ids = try await WebhookOutboxScenarios.insertEvents(first, count: 100, at: t0)
        let claimed = try await withThrowingTaskGroup(of: [String].self) { group in
            for (index, database) in [first, second, first, second].enumerated() {
                group.addTask {
                    var mine: [String] = []
                    while true {
                        let events = try await database.write { db in
                            try WebhookOutbox.claim(db, owner: "instance-\(index)", at: t0, lease: 30)
                        }
                        if events.isEmpty { return mine }
                        mine += events.map(\.eventID)
                    }
                }
            }
            return try await group.reduce(into: [String]()) { $0 += $1 }
        }
        try await first.close()
        try await second.close()
        #expect(claimed.count == ids.count)
        #expect(Set(claimed) == Set(ids))
    }

    @Test func twoGatewaysOnOneDatabaseDeliverEachEventOnce() async throws {
        let receiver = try await WebhookReceiver.start()
        let url = try PostgresTestServer.freshDatabase()
        let clock = ManualDateSource()
        func gateway() async throws -> RunningGateway {
            var configuration = SandboxGatewayConfiguration(
                databasePath: "/nonexistent/unused.sqlite", now: clock.dateProvider, passwordHashRounds: 1_000,
                logLevel: .critical)
            configuration.databaseURL = url
            // Each instance also polls the outbox, so the two race over the same rows.
            configuration.webhookOutboxInterval = .milliseconds(20)
            return try await SandboxGateway.start(configuration)
        }
        let first = try await gateway()
        let second = try await gateway()
        let credentials = try #require(first.credentials)
        let directory = FileManager.default.temporaryDirectory
        let harnesses = [first, second].map {
            GatewayHarness(gateway: $0, clock: clock, directory: directory, credentials: credentials)
        }
        var tokens: [String] = []
        for harness in harnesses { tokens.append(try await harness.login()) }
        #expect(
            try await harnesses[0].send(
                .put, GatewayPaths.webhookConfig, json: WebhookConfig(callbackURL: receiver.url, secret: nil),
                token: tokens[0]
            ).status == 200)

        let payments = 24
        var transactions: Set<String> = []
        for index in 0..<payments {
            let reply = try await PaymentHTTPTests.post(
                harnesses[index % 2], GatewayPaths.authorizeCard,
                try PaymentHTTPTests.authorize(SimulatedTerminal.card("visa-credit"), amount: 10_00 + Int64(index)),
                token: tokens[index % 2])
            #expect(reply.status == 200)
            transactions.insert(try reply.decode(Transaction.self).id.rawValue)
        }
        while receiver.received.posts.count < payments, !Task.isCancelled { await Task.yield() }
        try await first.waitUntilWebhooksIdle()
        try await second.waitUntilWebhooksIdle()
        let left = try await first.environment.store.database.read { db in try WebhookOutbox.undeliveredCount(db) }
        await first.shutdown()
        await second.shutdown()
        await receiver.harness.stop()

        let posts = receiver.received.posts
        let perEvent = Dictionary(grouping: posts, by: \.eventID).mapValues(\.count)
        #expect(perEvent.count == payments)
        #expect(perEvent.values.allSatisfy { $0 == 1 }, "\(perEvent.filter { $0.value > 1 })")
        let paid = try posts.map { try GatewayJSON.makeDecoder().decode(WebhookPayload.self, from: $0.body).uniqueID }
        #expect(Set(paid) == transactions)
        #expect(left == 0)
    }
}
