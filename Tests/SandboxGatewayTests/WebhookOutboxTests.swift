import Foundation
import GatewayAPI
import GRDB
import Hummingbird
import MPOSTestSupport
import Synchronization
import Testing

@testable import SandboxGateway

/// What a webhook receiver got: each post's event id, attempt and body.
final class ReceivedWebhooks: Sendable {
    /// One post received.
    struct Post: Sendable {
        var eventID: String
        var attempt: Int
        var body: Data
    }

    private let list = Mutex<[Post]>([])

    /// Every post so far, in arrival order.
    var posts: [Post] { list.withLock { $0 } }

    /// Adds a post; returns how many came so far.
    func append(_ post: Post) -> Int { list.withLock { $0.append(post); return $0.count } }
}

/// A webhook receiver on a gateway of its own (a harness with an extra route), so that it
/// outlives the gateways under test.
struct WebhookReceiver {
    let harness: GatewayHarness
    let received: ReceivedWebhooks

    /// The receiver's URL.
    var url: String { "http://127.0.0.1:\(harness.gateway.port)/hook" }

    /// Starts a receiver answering 503 to the first `failing` posts and 200 afterwards.
    static func start(failing: Int = 0) async throws -> WebhookReceiver {
        let received = ReceivedWebhooks()
        let harness = try await GatewayHarness.start(additionalRoutes: { router, _ in
            router.post("/hook") { request, _ in
                let body = try await request.body.collect(upTo: 1 << 20)
                let count = received.append(
                    .init(
                        eventID: request.headers[HTTPField.Name(WebhookSignature.eventIDHeaderName)!] ?? "",
                        attempt: Int(request.headers[HTTPField.Name(WebhookSignature.attemptHeaderName)!] ?? "") ?? 0,
                        body: Data(body.readableBytesView)))
                return Response(status: count <= failing ? .serviceUnavailable : .ok)
            }
        })
        return WebhookReceiver(harness: harness, received: received)
    }
}

/// The outbox's claim, lease and settlement, on any engine.
enum WebhookOutboxScenarios {
    /// Stores `count` events due at `time` in their own write.
    static func insertEvents(_ database: any GatewayDatabase, count: Int, at time: Date) async throws -> [String] {
        try await database.write { db in
            for index in 0..<count {
                let row = LedgerTransaction(
                    id: "tx_outbox_\(index)", merchantId: "m_outbox", kind: .sale, status: .approved,
                    amount: 10_00 + Int64(index), currency: .eur, now: time)
                try WebhookOutbox.insert(
                    db, row: row, merchantName: "Outbox Shop", url: "http://127.0.0.1:9/hook", secret: nil,
                    at: time)
            }
            return try db.fetchValues(
                String.self, sql: "SELECT event_id FROM payment_webhook_outbox WHERE merchant_id = 'm_outbox'")
        }
    }

    /// A claim holds its events for the lease; another owner takes them over once it has run
    /// out, and then only the new owner can settle them.
    static func aClaimIsHeldForItsLeaseAndThenTakenOver(_ database: any GatewayDatabase, at t0: Date) async throws {
        let ids = try await insertEvents(database, count: 1, at: t0)
        func claim(_ owner: String, after seconds: TimeInterval) async throws -> [WebhookOutbox.Event] {
            try await database.write { db in
                try WebhookOutbox.claim(db, owner: owner, at: t0.addingTimeInterval(seconds), lease: 30)
            }
        }
        let first = try await claim("a", after: 0)
        #expect(first.map(\.eventID) == ids && first.first?.attempts == 0)
        #expect(first.first?.body.isEmpty == false)
        #expect(try await claim("b", after: 10).isEmpty)
        let taken = try await claim("b", after: 31)
        #expect(taken.map(\.eventID) == ids)

        func settle(_ owner: String, succeeded: Bool) async throws -> Bool {
            try await database.write { db in
                try WebhookOutbox.settle(
                    db,
                    WebhookAttempt(
                        eventID: ids[0], merchantID: "m_outbox", transactionID: "tx_outbox_0", url: "u", attempt: 1,
                        statusCode: 200, failure: nil, succeeded: succeeded, attemptedAt: t0.addingTimeInterval(32),
                        nextAttemptAt: nil), owner: owner, lease: 30)
            }
        }
        #expect(try await settle("a", succeeded: true) == false)
        #expect(try await settle("b", succeeded: true))
        #expect(try await claim("c", after: 1_000).isEmpty)
        let left = try await database.read { db in try WebhookOutbox.undeliveredCount(db) }
        #expect(left == 0)
    }

    /// A failed attempt makes the event due again at its retry time, held by its owner
    /// until a lease past it.
    static func aFailedAttemptIsDueAgainAtItsRetry(_ database: any GatewayDatabase, at t0: Date) async throws {
        let ids = try await insertEvents(database, count: 1, at: t0)
        _ = try await database.write { db in try WebhookOutbox.claim(db, owner: "a", at: t0, lease: 30) }
        let kept = try await database.write { db in
            try WebhookOutbox.settle(
                db,
                WebhookAttempt(
                    eventID: ids[0], merchantID: "m_outbox", transactionID: "tx_outbox_0", url: "u", attempt: 1,
                    statusCode: 503, failure: .httpStatus, succeeded: false, attemptedAt: t0,
                    nextAttemptAt: t0.addingTimeInterval(1)), owner: "a", lease: 30)
        }
        #expect(kept)
        let early = try await database.write { db in
            try WebhookOutbox.claim(db, owner: "b", at: t0.addingTimeInterval(30), lease: 30)
        }
        #expect(early.isEmpty)
        let late = try await database.write { db in
            try WebhookOutbox.claim(db, owner: "b", at: t0.addingTimeInterval(32), lease: 30)
        }
        #expect(late.map(\.attempts) == [1])
    }
}

/// The webhook outbox on SQLite: the claim SQL, and events that survive a stopped gateway.
@Suite(.timeLimit(.minutes(2))) struct WebhookOutboxTests {
    /// A pass looks for due events in an index of the undelivered ones only, so that a log
    /// of delivered events weeks long costs an idle pass nothing; `anyDue` sees what the
    /// claim would take.
    @Test func duePassesReadOnlyUndeliveredEvents() async throws {
        try await GatewayHarness.with { harness in
            let database = harness.gateway.environment.store.database
            let t0 = harness.clock.now().addingTimeInterval(86_400)
            let plan = try await database.read { db in
                try db.fetchAll(
                    sql: """
                        EXPLAIN QUERY PLAN SELECT 1 FROM payment_webhook_outbox
                        WHERE delivered_at IS NULL AND gave_up_at IS NULL AND next_attempt_at <= ?
                          AND (claimed_until IS NULL OR claimed_until < ?) LIMIT 1
                        """, arguments: ["2026-01-01", "2026-01-01"]
                ).map { $0["detail"] as String }.joined(separator: "; ")
            }
            #expect(plan.contains("payment_webhook_outbox_pending"), "\(plan)")
            #expect(try await database.read { try WebhookOutbox.anyDue($0, at: t0) } == false)
            _ = try await WebhookOutboxScenarios.insertEvents(database, count: 2, at: t0)
            #expect(try await database.read { try WebhookOutbox.anyDue($0, at: t0.addingTimeInterval(-1)) } == false)
            #expect(try await database.read { try WebhookOutbox.anyDue($0, at: t0) })
            _ = try await database.write { try WebhookOutbox.claim($0, owner: "a", at: t0, lease: 30) }
            #expect(try await database.read { try WebhookOutbox.anyDue($0, at: t0.addingTimeInterval(10)) } == false)
            #expect(try await database.read { try WebhookOutbox.anyDue($0, at: t0.addingTimeInterval(31)) })
        }
    }

    @Test func aClaimIsHeldForItsLeaseAndThenTakenOver() async throws {
        try await GatewayHarness.with { harness in
            // A day ahead of the gateway's own (manual) time, so its passes leave these events alone.
            try await WebhookOutboxScenarios.aClaimIsHeldForItsLeaseAndThenTakenOver(
                harness.gateway.environment.store.database, at: harness.clock.now().addingTimeInterval(86_400))
        }
    }

    @Test func aFailedAttemptIsDueAgainAtItsRetry() async throws {
        try await GatewayHarness.with { harness in
            try await WebhookOutboxScenarios.aFailedAttemptIsDueAgainAtItsRetry(
                harness.gateway.environment.store.database, at: harness.clock.now().addingTimeInterval(86_400))
        }
    }

    @Test func anEventAStoppedGatewayLeftIsDeliveredByTheNextStart() async throws {
        let receiver = try await WebhookReceiver.start(failing: 1)
        defer { Task { await receiver.harness.stop() } }
        let clock = ManualDateSource()
        // Retries wait on this clock, which never moves: the first gateway stops with its retry pending.
        let webhookClock = ManualClock()
        let first = try await GatewayHarness.start(clock: clock, webhookClock: webhookClock)
        let token = try await first.login()
        #expect(
            try await first.send(
                .put, GatewayPaths.webhookConfig, json: WebhookConfig(callbackURL: receiver.url, secret: nil),
                token: token
            ).status == 200)
        let sale = try await PaymentHTTPTests.post(
            first, GatewayPaths.authorizeCard,
            try PaymentHTTPTests.authorize(SimulatedTerminal.card("visa-credit"), amount: 31_00), token: token)
        #expect(sale.status == 200)
        let database = first.gateway.environment.store.database
        // The failed first attempt is recorded in the outbox, then the gateway stops.
        while try await database.read({ db in
            try db.fetchValue(Int.self, sql: "SELECT attempt FROM payment_webhook_outbox") ?? 0
        }) < 1, !Task.isCancelled {
            await Task.yield()
        }
        await first.stop(removingFiles: false)
        #expect(receiver.received.posts.count == 1)

        clock.advance(by: 1)
        let second = try await SandboxGateway.start(
            SandboxGatewayConfiguration(
                databasePath: first.directory.appendingPathComponent("gateway.sqlite").path,
                now: clock.dateProvider, passwordHashRounds: 1_000, logLevel: .critical))
        defer { try? FileManager.default.removeItem(at: first.directory) }
        try await second.waitUntilWebhooksIdle()
        await second.shutdown()

        let received = receiver.received.posts
        #expect(received.count == 2)
        #expect(received.map(\.attempt) == [1, 2])
        #expect(Set(received.map(\.eventID)).count == 1 && received[0].eventID.hasPrefix("evt_"))
        let payload = try GatewayJSON.makeDecoder().decode(WebhookPayload.self, from: received[1].body)
        #expect(payload.uniqueID == (try sale.decode(Transaction.self)).id.rawValue)
        let state = try await database.read { db in
            try db.fetchOne(sql: "SELECT attempt, delivered_at FROM payment_webhook_outbox").map {
                (attempt: $0["attempt"] as Int, deliveredAt: $0["delivered_at"] as String?)
            }
        }
        #expect(state?.attempt == 2)
        #expect(state?.deliveredAt != nil)
    }
}
