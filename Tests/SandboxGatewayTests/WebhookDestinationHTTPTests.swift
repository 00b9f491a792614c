import Foundation
import GRDB
import GatewayAPI
import Hummingbird
import MPOSTestSupport
import SandboxGateway
import Synchronization
import Testing

/// Webhooks reach only where they should (issue 43, finding 4): the configuration is checked
/// on the addresses its host resolves to, a delivery is checked again and connects to the
/// address checked, redirects are never followed, and the delivery log keeps a failure class
/// rather than the socket's error text.
@Suite(.timeLimit(.minutes(3)), .postgresServer) struct WebhookDestinationHTTPTests {
    static func configure(_ harness: GatewayHarness, _ url: String, token: String, secret: String? = nil)
        async throws
        -> GatewayHarness.Reply
    {
        try await harness.send(
            .put, GatewayPaths.webhookConfig, json: WebhookConfig(callbackURL: url, secret: secret),
            token: token)
    }

    static func sale(_ harness: GatewayHarness, token: String, amount: Int64 = 12_00) async throws
        -> Transaction
    {
        try await PaymentHTTPTests.post(
            harness, GatewayPaths.authorizeCard,
            try PaymentHTTPTests.authorize(SimulatedTerminal.card("visa-credit"), amount: amount),
            token: token
        ).decode(Transaction.self)
    }

    /// The delivery log once it holds `count` attempts (retries wait on a clock the test never moves).
    static func deliveries(_ harness: GatewayHarness, token: String, count: Int) async throws
        -> [WebhookDelivery]
    {
        while !Task.isCancelled {
            let list = try await harness.send(.get, GatewayPaths.webhookDeliveries, token: token)
                .decode(WebhookDeliveryList.self).deliveries
            if list.count >= count { return list }
            await Task.yield()
        }
        return []
    }

    @Test(arguments: GatewayTestEngine.allCases)
    func metadataAndLinkLocalURLsAreRefusedInEverySpelling(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(
            engine: engine,
            configure: { $0.webhookDestinations = .init(allowing: [.loopback, .privateNetworks]) }
        ) { harness in
            let token = try await harness.login()
            for url in [
                "http://169.254.169.254/latest/meta-data", "http://2852039166/",
                "http://0xa9.0xfe.0xa9.0xfe/",
                "http://0xa9fea9fe/", "http://0251.0376.0251.0376/", "http://[::ffff:169.254.169.254]/",
                "http://[::ffff:a9fe:a9fe]/latest", "https://[fd00:ec2::254]/", "http://100.100.100.200/",
                "http://[fe80::1]/", "http://169.254.10.1:8080/", "http://[64:ff9b::a9fe:a9fe]/",
            ] {
                let reply = try await Self.configure(harness, url, token: token)
                #expect(reply.status == 400, "\(url)")
                #expect(reply.error?.code == GatewayErrorCode.webhookDestinationRefused, "\(url)")
                #expect(
                    reply.error?.message.contains("never reach") == true,
                    "\(url): \(reply.error?.message ?? "")")
            }
            // A user or password in the URL is refused without being echoed.
            let secretive = try await Self.configure(
                harness, "https://admin:hunter2-kept@169.254.169.254/", token: token)
            #expect(secretive.status == 400 && secretive.error?.code == GatewayErrorCode.invalidValue)
            #expect(!String(decoding: secretive.body, as: UTF8.self).contains("hunter2-kept"))
            let config = try await harness.send(.get, GatewayPaths.webhookConfig, token: token)
            #expect(try config.decode(WebhookConfigResponse.self).callbackURL == nil, "nothing was stored")
        }
    }

    @Test func privateAndLoopbackAddressesNeedTheirScope() async throws {
        // The local sandbox (listening on loopback): loopback is allowed, private ranges are not.
        try await GatewayHarness.with { harness in
            let token = try await harness.login()
            for url in [
                "http://10.0.0.1/", "http://192.168.1.20:8080/hook", "http://[fd12::1]/",
                "http://100.64.0.9/",
            ] {
                let reply = try await Self.configure(harness, url, token: token)
                #expect(reply.status == 400 && reply.error?.code == 4006, "\(url)")
                #expect(reply.error?.message.contains("--allow-webhooks-to private") == true, "\(url)")
            }
            #expect(try await Self.configure(harness, "http://127.0.0.1:9/hook", token: token).status == 200)
            #expect(try await Self.configure(harness, "http://localhost:9/hook", token: token).status == 200)
        }
        // A gateway that does not allow loopback refuses it in every spelling.
        try await GatewayHarness.with(configure: { $0.webhookDestinations = .publicOnly }) { harness in
            let token = try await harness.login()
            for url in [
                "http://127.0.0.1:9/", "http://0x7f.1:9/", "http://2130706433/", "http://127.1/",
                "http://localhost:9/",
                "http://[::1]:9/", "http://[::ffff:127.0.0.1]/", "http://0.0.0.0:9/", "http://0/",
            ] {
                let reply = try await Self.configure(harness, url, token: token)
                #expect(reply.status == 400 && reply.error?.code == 4006, "\(url)")
                #expect(reply.error?.message.contains("loopback") == true, "\(url)")
            }
        }
        // `--allow-webhooks-to private`: private ranges, never link-local or metadata.
        try await GatewayHarness.with(configure: {
            $0.webhookDestinations = .init(allowing: [.privateNetworks])
        }) { harness in
            let token = try await harness.login()
            #expect(try await Self.configure(harness, "http://10.0.0.1/", token: token).status == 200)
            #expect(try await Self.configure(harness, "http://100.64.0.9/", token: token).status == 200)
            #expect(try await Self.configure(harness, "http://169.254.169.254/", token: token).status == 400)
            #expect(try await Self.configure(harness, "http://169.254.1.1/", token: token).status == 400)
        }
    }

    /// A payment's own callback URL passes the contract's rule (https) and is then held to the
    /// destination policy before any charge.
    @Test(arguments: GatewayTestEngine.allCases)
    func aPaymentsCallbackToAnInternalAddressIsRefusedBeforeAnyCharge(engine: GatewayTestEngine) async throws
    {
        try await GatewayHarness.with(engine: engine) { harness in
            let token = try await harness.login()
            for (index, url) in [
                "https://169.254.169.254/latest/meta-data", "https://[::ffff:a9fe:a9fe]/x",
                "https://10.0.0.1/paid",
                "https://2852039166/paid",
            ].enumerated() {
                let reply = try await PaymentHTTPTests.post(
                    harness, GatewayPaths.authorizeCard,
                    try PaymentCallbackTests.sale(callbackURL: url, amount: 40_00 + Int64(index)),
                    token: token)
                #expect(reply.status == 400, "\(url)")
                #expect(reply.error?.code == GatewayErrorCode.webhookDestinationRefused, "\(url)")
            }
            let page = try await harness.send(
                .post, GatewayPaths.searchTransactions, json: TransactionSearchRequest(), token: token)
            #expect(try page.decode(TransactionPage.self).totalCount == 0)
        }
    }

    /// A receiver on loopback answers 307 to another loopback receiver: the gateway does not
    /// follow (the old client did, body and signature included), and logs `redirect`.
    @Test(arguments: GatewayTestEngine.allCases) func aRedirectIsNeverFollowed(engine: GatewayTestEngine)
        async throws
    {
        let second = Mutex(0)
        let port = Mutex(0)
        try await GatewayHarness.with(
            webhookClock: ManualClock(),
            additionalRoutes: { router, _ in
                router.post("/first") { _, _ in
                    let target = "http://127.0.0.1:\(port.withLock { $0 })/second"
                    return Response(status: .temporaryRedirect, headers: [.location: target])
                }
                router.post("/second") { _, _ in
                    second.withLock { $0 += 1 }
                    return Response(status: .ok)
                }
            }, engine: engine
        ) { harness in
            port.withLock { $0 = harness.gateway.port }
            let token = try await harness.login()
            let url = "http://127.0.0.1:\(harness.gateway.port)/first"
            #expect(
                try await Self.configure(harness, url, token: token, secret: "whsec-0123456789abcdef").status
                    == 200)
            _ = try await Self.sale(harness, token: token)
            let deliveries = try await Self.deliveries(harness, token: token, count: 1)
            #expect(deliveries.map(\.failure) == [.redirect])
            #expect(deliveries.map(\.statusCode) == [307])
            #expect(deliveries.map(\.succeeded) == [false])
            #expect(second.withLock { $0 } == 0, "the redirect's target got nothing")
        }
    }

    /// A closed port and a port that accepts but never answers are logged as `unreachable` and
    /// `timeout`, with no error text, in the table, the API and the dashboard alike.
    @Test(arguments: GatewayTestEngine.allCases)
    func failuresAreLoggedAsClassesWithoutTheSocketsText(engine: GatewayTestEngine) async throws {
        let silent = SilentPort.listening()
        defer { silent.close() }
        let closed = SilentPort.closed()
        try await GatewayHarness.with(
            webhookClock: ManualClock(), engine: engine, configure: { $0.webhookTimeout = .milliseconds(300) }
        ) { harness in
            let token = try await harness.login()
            #expect(
                try await Self.configure(harness, "http://127.0.0.1:\(closed)/hook", token: token).status
                    == 200)
            _ = try await Self.sale(harness, token: token, amount: 13_00)
            _ = try await Self.deliveries(harness, token: token, count: 1)
            #expect(
                try await Self.configure(harness, "http://127.0.0.1:\(silent.port)/hook", token: token).status
                    == 200)
            _ = try await Self.sale(harness, token: token, amount: 14_00)
            let deliveries = try await Self.deliveries(harness, token: token, count: 2)
            #expect(deliveries.map(\.failure) == [.timeout, .unreachable])
            #expect(deliveries.allSatisfy { $0.statusCode == nil && !$0.succeeded })

            let api = String(
                decoding: try await harness.send(.get, GatewayPaths.webhookDeliveries, token: token).body,
                as: UTF8.self)
            let stored = try await harness.gateway.environment.store.database.read { db in
                try db.fetchAll(sql: "SELECT * FROM payment_webhook_delivery", arguments: [])
                    .map { row in
                        row.columnNames.map { "\($0)=\(row[$0] as DatabaseValue)" }.joined(separator: " ")
                    }
                    .joined(separator: "\n")
            }
            let browser = try await DashboardBrowser.signedIn(harness)
            let dashboard = DashboardBrowser.text(try await browser.get("/dashboard/webhooks"))
            #expect(dashboard.contains("<td>unreachable</td>") && dashboard.contains("<td>timeout</td>"))
            for (name, text) in [("API", api), ("table", stored), ("dashboard", dashboard)] {
                for word in [
                    "connection refused", "errno", "connect(", "timed out", "econnrefused",
                    "nioconnectionerror",
                    "deadlineexceeded", "readtimeout", "httpclienterror", "channelerror",
                ] {
                    #expect(!text.lowercased().contains(word), "\(name) tells \(word)")
                }
            }
        }
    }

    /// A URL stored while it was allowed (or whose host now resolves elsewhere) is checked
    /// again at delivery: refused, with no request sent.
    @Test(arguments: GatewayTestEngine.allCases)
    func aURLRefusedAtDeliveryGetsNoRequest(engine: GatewayTestEngine) async throws {
        let posts = Mutex(0)
        try await GatewayHarness.with(
            webhookClock: ManualClock(),
            additionalRoutes: { router, _ in
                router.post("/hook") { _, _ in
                    posts.withLock { $0 += 1 }
                    return Response(status: .ok)
                }
            }, engine: engine, configure: { $0.webhookDestinations = .publicOnly }
        ) { harness in
            let token = try await harness.login()
            let url = "http://localhost:\(harness.gateway.port)/hook"
            #expect(try await Self.configure(harness, url, token: token).status == 400)
            // As a gateway that allowed loopback stored it, before this one started.
            let merchant = harness.credentials.merchantID
            _ = try await harness.gateway.environment.store.database.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO payment_webhook_config (merchant_id, url, secret, enabled, updated_at)
                        VALUES (?, ?, '', 1, '2027-01-15 08:00:00.000')
                        """, arguments: [merchant, url])
            }
            _ = try await Self.sale(harness, token: token)
            let deliveries = try await Self.deliveries(harness, token: token, count: 1)
            #expect(deliveries.map(\.failure) == [.destinationRefused])
            #expect(posts.withLock { $0 } == 0)
            try await harness.gateway.waitUntilWebhooksIdle()
            #expect(
                try await Self.deliveries(harness, token: token, count: 1).count == 1,
                "a refusal is not retried")
        }
    }

    /// The signature carries the gateway's time: the receiver that verifies with
    /// `WebhookSignature.verify` refuses a captured delivery replayed 301 seconds later.
    @Test func aCapturedDeliveryReplayedLaterIsRefused() async throws {
        let secret = "whsec-replay-0123456789"
        let captured = Mutex<[(header: String, eventID: String, body: [UInt8])]>([])
        try await GatewayHarness.with(
            webhookClock: ManualClock(),
            additionalRoutes: { router, _ in
                router.post("/hook") { request, _ in
                    let body = try await request.body.collect(upTo: 1 << 20)
                    captured.withLock {
                        $0.append(
                            (
                                request.headers[HTTPField.Name(WebhookSignature.headerName)!] ?? "",
                                request.headers[HTTPField.Name(WebhookSignature.eventIDHeaderName)!] ?? "",
                                Array(body.readableBytesView)
                            ))
                    }
                    return Response(status: .ok)
                }
            }
        ) { harness in
            let token = try await harness.login()
            let url = "http://127.0.0.1:\(harness.gateway.port)/hook"
            #expect(try await Self.configure(harness, url, token: token, secret: secret).status == 200)
            _ = try await Self.sale(harness, token: token)
            while captured.withLock({ $0.isEmpty }), !Task.isCancelled { await Task.yield() }
            let delivery = try #require(captured.withLock { $0.first })
            #expect(delivery.eventID.hasPrefix("evt_"))
            try WebhookSignature.verify(
                header: delivery.header, eventID: delivery.eventID, body: delivery.body, secret: secret,
                now: harness.clock.now())
            harness.clock.advance(by: 301)
            #expect(throws: WebhookSignatureError.staleTimestamp) {
                try WebhookSignature.verify(
                    header: delivery.header, eventID: delivery.eventID, body: delivery.body, secret: secret,
                    now: harness.clock.now())
            }
        }
    }
}
