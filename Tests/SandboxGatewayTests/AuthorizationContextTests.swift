import Foundation
import Testing

@testable import SandboxGateway

/// The one statement a card authorisation's write reads its context with: the card's spend,
/// the open batch and the webhook, the same on both engines.
@Suite(.timeLimit(.minutes(2)), .postgresServer) struct AuthorizationContextTests {
    static let day = Date(timeIntervalSince1970: 1_800_000_000)

    @Test(arguments: GatewayTestEngine.allCases)
    func aMerchantWithNoSalesReadsNoSpendNoBatchAndNoWebhook(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let merchant = harness.credentials.merchantID
            let context = try await harness.gateway.environment.store.database.write { db in
                try AuthorizationContext.read(db, merchant: merchant, fingerprint: "card-a", on: Self.day)
            }
            #expect(context.spent == 0)
            #expect(context.openBatchID == nil)
            #expect(context.webhook == nil)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases)
    func itReadsTheCardsSpendOfTheDayTheOpenBatchAndTheEnabledWebhook(engine: GatewayTestEngine) async throws
    {
        try await GatewayHarness.with(engine: engine) { harness in
            let merchant = harness.credentials.merchantID
            let (context, batch) = try await harness.gateway.environment.store.database.write { db in
                try db.execute(
                    sql:
                        "INSERT INTO payment_card_spend (card_fingerprint, day, spent) VALUES (?, ?, ?), (?, ?, ?)",
                    arguments: [
                        "card-a", PaymentService.utcDay(Self.day), 12_34,
                        "card-a", PaymentService.utcDay(Self.day.addingTimeInterval(-86_400)), 99_99,
                    ])
                let batch = try PaymentService.openBatch(db, merchant: merchant, now: Self.day)
                try db.execute(
                    sql: """
                        INSERT INTO payment_webhook_config (merchant_id, url, secret, enabled, updated_at)
                        VALUES (?, 'https://hooks.example/sales', 'whsec', 1, '2027-01-15 08:00:00.000')
                        """, arguments: [merchant])
                return (
                    try AuthorizationContext.read(
                        db, merchant: merchant, fingerprint: "card-a", on: Self.day), batch
                )
            }
            #expect(context.spent == 12_34)
            #expect(context.openBatchID == batch)
            #expect(context.webhook?.url == "https://hooks.example/sales")
            #expect(context.webhook?.secret == "whsec")
            #expect(context.webhook?.merchantId == merchant)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases)
    func aDisabledWebhookIsNone(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let merchant = harness.credentials.merchantID
            let context = try await harness.gateway.environment.store.database.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO payment_webhook_config (merchant_id, url, secret, enabled, updated_at)
                        VALUES (?, 'https://hooks.example/sales', '', 0, '2027-01-15 08:00:00.000')
                        """, arguments: [merchant])
                return try AuthorizationContext.read(
                    db, merchant: merchant, fingerprint: "card-a", on: Self.day)
            }
            #expect(context.webhook == nil)
            #expect(context.spent == 0)
        }
    }
}
