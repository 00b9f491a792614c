import Foundation
import GatewayAPI
import Hummingbird
import MPOSCore
import SandboxGateway
import Testing

/// What merchant A left in the sandbox before merchant B walks the routes with A's ids.
struct MerchantAFacts {
    let credentials: SandboxCredentials
    let token: String
    let transactionID: String
    let idempotencyKey: String
    let maskedPAN: String
    let callbackURL: String
    let inventoryCSV: String
    let saleAmount: Int64
}

/// One walker: a fresh merchant B, logged in, with merchant A's facts to probe with.
struct MerchantWalker {
    let harness: GatewayHarness
    let a: MerchantAFacts
    let b: SandboxCredentials
    let token: String

    /// Sends as B (or with B's API key) and checks the answer carries none of A's identity or card.
    func send(
        _ method: HTTPRequest.Method, _ path: String, json value: (some Encodable)?,
        apiKey: Bool = false, idempotencyKey: String? = PaymentHTTPTests.key()
    ) async throws -> GatewayHarness.Reply {
        let reply: GatewayHarness.Reply
        if let value {
            reply = try await harness.send(
                method, path, json: value, token: apiKey ? nil : token, apiKey: apiKey ? b.apiKey : nil,
                idempotencyKey: idempotencyKey)
        } else {
            reply = try await harness.send(
                method, path, token: apiKey ? nil : token, apiKey: apiKey ? b.apiKey : nil,
                idempotencyKey: idempotencyKey)
        }
        let text = String(decoding: reply.body, as: UTF8.self)
        #expect(!text.contains(a.credentials.merchantID), "\(method) \(path) shows merchant A's id")
        #expect(!text.contains(a.maskedPAN), "\(method) \(path) shows merchant A's card")
        return reply
    }

    /// `path` with A's transaction id in it.
    func aTransaction(_ template: String) -> String {
        GatewayPaths.transaction(template, id: a.transactionID)
    }

    /// B's outbox, read with B's API key.
    func outbox() async throws -> OutboxList {
        try await send(.get, GatewayPaths.outbox, json: Int?.none, apiKey: true).decode(OutboxList.self)
    }
}

typealias RouteWalk = @Sendable (MerchantWalker) async throws -> Void

@Suite(.timeLimit(.minutes(3)), .postgresServer) struct MerchantIsolationTests {
    /// A's sale, receipt, inventory and webhook, recorded before the walk.
    static func merchantA(_ harness: GatewayHarness) async throws -> MerchantAFacts {
        let token = try await harness.login()
        let callbackURL = "http://127.0.0.1:\(harness.gateway.port)/merchant-a-hook"
        let config = try await harness.send(
            .put, GatewayPaths.webhookConfig, json: WebhookConfig(callbackURL: callbackURL, secret: nil),
            token: token)
        #expect(config.status == 200)
        let key = PaymentHTTPTests.key()
        let sale = try await PaymentHTTPTests.post(
            harness, GatewayPaths.authorizeCard,
            try PaymentHTTPTests.authorize(SimulatedTerminal.card("amex"), amount: 987_65), token: token,
            key: key
        ).decode(Transaction.self)
        #expect(sale.status == .approved)
        let id = sale.id.rawValue
        let send = try await harness.send(
            .post, GatewayPaths.transaction(GatewayPaths.sendReceipt, id: id),
            json: SendReceiptRequest(channel: .email, address: "a@example.org"), token: token)
        #expect(send.status == 202)
        let csv = "sku,name,price\n1,Merchant A coffee,350\n"
        let upload = try await harness.send(
            .put, GatewayPaths.inventory, json: InventoryUploadRequest(version: 3, csv: csv), token: token)
        #expect(upload.status == 200)
        // A's delivery must exist before B looks, or an empty list for B would prove nothing.
        while !Task.isCancelled {
            let list = try await harness.send(.get, GatewayPaths.webhookDeliveries, token: token)
                .decode(WebhookDeliveryList.self)
            if !list.deliveries.isEmpty { break }
            await Task.yield()
        }
        return MerchantAFacts(
            credentials: harness.credentials, token: token, transactionID: id, idempotencyKey: key,
            maskedPAN: try #require(sale.card?.maskedPAN), callbackURL: callbackURL, inventoryCSV: csv,
            saleAmount: 987_65)
    }

    @Test func anotherMerchantSeesNoneOfTheFirstMerchantsDataOnAnyRoute() async throws {
        try await GatewayHarness.with(additionalRoutes: { router, _ in
            router.post("/merchant-a-hook") { _, _ in Response(status: .ok) }
        }) { harness in
            let a = try await Self.merchantA(harness)
            let table = Self.walks
            let covered = Set(table.keys)
            let routes = Set(GatewayRoutes.all.map(\.description))
            #expect(covered.subtracting(routes).isEmpty, "walks for routes that do not exist")
            for (index, route) in GatewayRoutes.all.enumerated() {
                let walk = try #require(table[route.description], "\(route) is not covered by the walk")
                // A fresh merchant per route, so every walk starts from a merchant with nothing.
                let b = try await harness.gateway.environment.accounts.createMerchant(
                    name: "Merchant B\(index)", user: "walker\(index)", email: "walker\(index)@example.org")
                let token = try await harness.login(user: b.user, password: b.password)
                try await walk(MerchantWalker(harness: harness, a: a, b: b, token: token))
            }
            try await Self.merchantAIsUntouched(harness, a)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func theFirstMerchantsAPIKeyAddsAMerchantThatLogsIn(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let first = harness.credentials
            let reply = try await harness.send(
                .post, GatewayPaths.merchants, json: CreateMerchantRequest(name: "Team B"),
                apiKey: first.apiKey)
            #expect(reply.status == 201)
            let added = try reply.decode(MerchantCredentials.self)
            #expect(added.merchantID != first.merchantID && added.user != first.user)
            let token = try await harness.login(user: added.user, password: added.password)
            let info = try await harness.send(.get, GatewayPaths.merchant, token: token).decode(
                MerchantInfo.self)
            #expect(info.id == added.merchantID && info.name == "Team B")

            let token0 = try await harness.login()
            let withToken = try await harness.send(
                .post, GatewayPaths.merchants, json: CreateMerchantRequest(), token: token0)
            #expect(withToken.status == 403)
            let anonymous = try await harness.send(
                .post, GatewayPaths.merchants, json: CreateMerchantRequest())
            #expect(anonymous.status == 401)
            let empty = try await harness.send(
                .post, GatewayPaths.merchants, json: CreateMerchantRequest(name: ""), apiKey: first.apiKey)
            #expect(empty.status == 400)
        }
    }

    /// After the walk A still has its one approved sale, open batch, inventory, webhook,
    /// password and stored idempotent answer.
    static func merchantAIsUntouched(_ harness: GatewayHarness, _ a: MerchantAFacts) async throws {
        let token = try await harness.login()
        let sale = try await harness.send(
            .get, GatewayPaths.transaction(GatewayPaths.transaction, id: a.transactionID), token: token
        ).decode(Transaction.self)
        #expect(sale.status == .approved && sale.approvedAmount == a.saleAmount && sale.tipAmount == 0)
        let attempt = try await harness.send(.get, GatewayPaths.attempt(key: a.idempotencyKey), token: token)
        #expect(try attempt.decode(Transaction.self).id.rawValue == a.transactionID)
        let inventory = try await harness.send(.get, GatewayPaths.inventory, token: token)
            .decode(InventoryDocument.self)
        #expect(inventory.csv == a.inventoryCSV && inventory.version.version == 3)
        let config = try await harness.send(.get, GatewayPaths.webhookConfig, token: token)
            .decode(WebhookConfigResponse.self)
        #expect(config.callbackURL == a.callbackURL)
        let batch = try await harness.send(
            .post, GatewayPaths.closeBatch, token: token, idempotencyKey: PaymentHTTPTests.key()
        ).decode(Batch.self)
        #expect(batch.transactionCount == 1 && batch.totals.map(\.netAmount) == [a.saleAmount])
    }
}
