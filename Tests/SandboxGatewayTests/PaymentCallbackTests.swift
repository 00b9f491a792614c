import Foundation
import GatewayAPI
import Hummingbird
import MPOSCore
import MPOSTestSupport
import SandboxCards
import SandboxGateway
import Synchronization
import Testing

/// A payment's own callback URL (the Accept SDK's `callbackURL`): the gateway, on an ephemeral
/// loopback port, posts the recorded outcome to it, signed and retried as the merchant's
/// webhooks are, and refuses a URL it must not post to.
@Suite(.timeLimit(.minutes(2)), .postgresServer)
struct PaymentCallbackTests {
    static let secret = "whsec-callback-0123456789"

    static func sale(callbackURL: String?, amount: Int64 = 21_00) throws -> AuthorizeCardRequest {
        var request = try PaymentHTTPTests.authorize(SimulatedTerminal.card("visa-credit"), amount: amount)
        request.parameters.callbackURL = callbackURL
        return request
    }

    /// Checks that a callback body has every field of the Accept callback the contract carries.
    static func expectAcceptCallbackFields(in body: Data) {
        let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
        for field in [
            "uniqueID", "merchantID", "merchantName", "amount", "currency", "createdAt", "cardBrand",
            "cardNumber", "state", "aid", "aidLabel",
        ] {
            #expect(object?[field] != nil, "missing \(field)")
        }
    }

    @Test func theOutcomeIsPostedToThePaymentsCallbackSignedAndRetried() async throws {
        let received = Mutex<[(path: String, body: Data, signature: String?, eventID: String?)]>([])
        let webhookClock = ManualClock()
        try await GatewayHarness.with(
            webhookClock: webhookClock,
            additionalRoutes: { router, _ in
                for path in ["/merchant-hook", "/order-17/paid"] {
                    router.post(RouterPath(path)) { request, _ in
                        let body = try await request.body.collect(upTo: 1 << 20)
                        let count = received.withLock { list in
                            list.append(
                                (
                                    path, Data(body.readableBytesView),
                                    request.headers[HTTPField.Name(WebhookSignature.headerName)!],
                                    request.headers[HTTPField.Name(WebhookSignature.eventIDHeaderName)!]
                                ))
                            return list.filter { $0.path == path }.count
                        }
                        // The callback's first delivery fails, so the dispatcher retries it.
                        return Response(
                            status: path == "/order-17/paid" && count == 1 ? .serviceUnavailable : .ok)
                    }
                }
            }
        ) { harness in
            let token = try await harness.login()
            let base = "http://127.0.0.1:\(harness.gateway.port)"
            let config = try await harness.send(
                .put, GatewayPaths.webhookConfig,
                json: WebhookConfig(callbackURL: base + "/merchant-hook", secret: Self.secret), token: token)
            #expect(config.status == 200)

            let reply = try await PaymentHTTPTests.post(
                harness, GatewayPaths.authorizeCard, try Self.sale(callbackURL: base + "/order-17/paid"),
                token: token)
            #expect(reply.status == 200)
            let transaction = try reply.decode(Transaction.self)
            func callbacks() -> [(path: String, body: Data, signature: String?, eventID: String?)] {
                received.withLock { $0.filter { $0.path == "/order-17/paid" } }
            }
            // The first post failed; the retry waits 1 s on the injected clock.
            while webhookClock.nextDeadline == nil || callbacks().isEmpty, !Task.isCancelled {
                await Task.yield()
            }
            #expect(callbacks().count == 1)
            webhookClock.advance(by: .seconds(1))
            while callbacks().count < 2, !Task.isCancelled { await Task.yield() }

            let last = try #require(callbacks().last)
            try WebhookSignature.verify(
                header: last.signature ?? "", eventID: last.eventID ?? "", body: Array(last.body), secret: Self.secret,
                now: harness.clock.now())
            #expect(throws: WebhookSignatureError.signatureMismatch) {
                try WebhookSignature.verify(
                    header: last.signature ?? "", eventID: last.eventID ?? "", body: Array(last.body),
                    secret: "other-secret-0123", now: harness.clock.now())
            }
            let payload = try GatewayJSON.makeDecoder().decode(WebhookPayload.self, from: last.body)
            #expect(payload.uniqueID == transaction.id.rawValue)
            #expect(payload.state == .approved && payload.amount == 21_00 && payload.currency == .eur)
            #expect(payload.cardNumber == transaction.card?.maskedPAN)
            PaymentCallbackTests.expectAcceptCallbackFields(in: last.body)
            // The full card number is nowhere in what was posted.
            let pan = SimulatedTerminal.card("visa-credit").pan.unmaskedDigits
            #expect(!String(decoding: last.body, as: UTF8.self).contains(pan))
            // The merchant's webhook got its own delivery of the same outcome.
            #expect(received.withLock { $0.contains { $0.path == "/merchant-hook" } })
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func aCallbackTheGatewayMustNotPostToIsRefusedBeforeAnyCharge(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let token = try await harness.login()
            let refused = [
                "ftp://example.com/x", "http://example.com/paid", "/relative/path",
                "https://user:pw@example.com/x",
                "https://example.com/" + String(repeating: "a", count: 2048),
            ]
            for (index, url) in refused.enumerated() {
                let reply = try await PaymentHTTPTests.post(
                    harness, GatewayPaths.authorizeCard,
                    try Self.sale(callbackURL: url, amount: 30_00 + Int64(index)),
                    token: token)
                #expect(reply.status == 400, "\(url.prefix(40))")
                #expect(reply.error?.code == 4001, "\(url.prefix(40))")
            }
            let page = try await harness.send(
                .post, GatewayPaths.searchTransactions, json: TransactionSearchRequest(), token: token)
            #expect(try page.decode(TransactionPage.self).totalCount == 0)
        }
    }
}
