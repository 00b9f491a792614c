import EMV
import Foundation
import GRDB
import GatewayAPI
import MPOSCore
import SandboxCards
import SandboxGateway
import Testing

/// The issuer refuses a replayed or stale cryptogram (response code 63) over real HTTP with a
/// file database: a KSN is used once, and a card application's ATC only grows.
@Suite(.timeLimit(.minutes(2)), .postgresServer) struct ReplayedCryptogramTests {
    /// The transaction date (9A) every request of these tests carries, so that all of them
    /// meet the same day's counter whenever the suite runs.
    static let date = Date(timeIntervalSince1970: 1_800_000_000)

    /// A sale on `card` with the chip's ATC `atc` and, when given, the DUKPT counter `ksnCounter`.
    static func sale(
        _ card: String, amount: Int64, atc: UInt16, ksnCounter: UInt32? = nil, duplicateCheck: Bool = true
    ) throws -> AuthorizeCardRequest {
        let data = try SimulatedTerminal.authorization(
            card: SimulatedTerminal.card(card), amount: amount, atc: atc, ksnCounter: ksnCounter, date: date)
        return AuthorizeCardRequest(
            kind: .sale,
            parameters: PaymentParameters(amount: amount, currency: .eur, duplicateCheck: duplicateCheck),
            emvData: Hex.encode(data.emvData), encryptedCardData: Hex.encode(data.encryptedCardData),
            ksn: Hex.encode(data.ksn), maskedPAN: data.maskedPAN, entryMode: data.entryMode, cvm: data.cvm)
    }

    static func post(
        _ harness: GatewayHarness, _ request: AuthorizeCardRequest, token: String,
        key: String = PaymentHTTPTests.key()
    ) async throws -> Transaction {
        let reply = try await PaymentHTTPTests.post(
            harness, GatewayPaths.authorizeCard, request, token: token, key: key)
        #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
        return try reply.decode(Transaction.self)
    }

    /// Approved rows, their approved amounts, and the cards' spend, read from the gateway's database.
    static func ledger(_ harness: GatewayHarness) async throws -> (approved: Int, amount: Int64, spent: Int64) {
        try await harness.gateway.environment.store.database.read { db in
            let row = try db.fetchOne(
                sql: """
                    SELECT COUNT(*) AS n, COALESCE(SUM(amount_approved), 0) AS amount FROM payment_transaction
                    WHERE status = 'approved'
                    """)!
            let spent =
                try db.fetchValue(Int64.self, sql: "SELECT COALESCE(SUM(spent), 0) AS spent FROM payment_card_spend") ?? 0
            return (row["n"], row["amount"], spent)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func theSameRequestUnderANewKeyIsDeclinedAsAReplayAndChargesNothing(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let token = try await harness.login()
            let request = try Self.sale("visa-debit", amount: 450_00, atc: 0x0013)
            let key = PaymentHTTPTests.key()
            let first = try await Self.post(harness, request, token: token, key: key)
            #expect(first.status == .approved && first.approvedAmount == 450_00)
            let charged = try await Self.ledger(harness)

            // The same key still replays the stored approval: it never reaches the issuer.
            let retry = try await PaymentHTTPTests.post(
                harness, GatewayPaths.authorizeCard, request, token: token, key: key)
            #expect(retry.header(GatewayHeaders.idempotentReplayed) == "true")
            #expect(try retry.decode(Transaction.self).id == first.id)

            // Byte for byte under a new key, then without the duplicate check: declined, 63.
            var unchecked = request
            unchecked.parameters.duplicateCheck = false
            for replay in [request, unchecked] {
                let declined = try await Self.post(harness, replay, token: token)
                #expect(
                    declined.status == .declined && declined.responseCode == CryptogramReplay.responseCode)
                #expect(declined.approvedAmount == 0 && declined.authorizationCode == nil)
                #expect(
                    declined.acquirerMessage
                        == "replayed cryptogram: ATC 0013 is not above 0013 already seen for this card")
                #expect(declined.issuerAuthenticationData == nil)
            }
            #expect(try await Self.ledger(harness) == charged)

            // visa-debit holds 500.00 a day: the replays took none of what is left.
            let next = try await Self.post(
                harness, try Self.sale("visa-debit", amount: 50_00, atc: 0x0014), token: token)
            #expect(next.status == .approved && next.responseCode == "00")
        }
    }

    /// A sale the card approved offline while the gateway was down reaches the issuer late:
    /// the customer may have paid online again meanwhile, with a higher counter. Its TC is
    /// approved all the same; sent again under a new key (its KSN seen), it is a replay.
    @Test(arguments: GatewayTestEngine.allCases) func aSaleApprovedOfflineIsApprovedWhenForwardedAfterALaterOnlineOne(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let token = try await harness.login()
            let (data, emvData) = try SimulatedTerminal.offlineApproval(
                card: SimulatedTerminal.card("visa-credit"), amount: 15_00, atc: 30, date: Self.date)
            let online = try await Self.post(
                harness, try Self.sale("visa-credit", amount: 16_00, atc: 31), token: token)
            #expect(online.status == .approved)

            var stored = AuthorizeCardRequest(
                kind: .sale, parameters: PaymentParameters(amount: 15_00, currency: .eur),
                emvData: Hex.encode(emvData), encryptedCardData: Hex.encode(data.encryptedCardData),
                ksn: Hex.encode(data.ksn), maskedPAN: data.maskedPAN, entryMode: data.entryMode, cvm: data.cvm)
            stored.offlineStoredAt = Self.date
            let forwarded = try await Self.post(harness, stored, token: token)
            #expect(forwarded.status == .approved && forwarded.responseCode == "00", "\(forwarded.acquirerMessage ?? "")")
            let again = try await Self.post(harness, stored, token: token)
            #expect(again.status == .declined && again.responseCode == "63")
            #expect(again.acquirerMessage?.hasPrefix("replayed cryptogram: KSN ") == true)
            #expect(try await Self.ledger(harness).amount == 31_00)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func aLowerATCThanOneApprovedIsDeclinedAndTheNextOneApproves(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let token = try await harness.login()
            let approved = try await Self.post(
                harness, try Self.sale("visa-credit", amount: 12_00, atc: 20), token: token)
            #expect(approved.status == .approved)
            let older = try await Self.post(
                harness, try Self.sale("visa-credit", amount: 13_00, atc: 10), token: token)
            #expect(older.status == .declined && older.responseCode == "63")
            #expect(
                older.acquirerMessage
                    == "replayed cryptogram: ATC 000A is not above 0014 already seen for this card")
            let next = try await Self.post(
                harness, try Self.sale("visa-credit", amount: 14_00, atc: 21), token: token)
            #expect(next.status == .approved && next.responseCode == "00")
            #expect(try await Self.ledger(harness).amount == 26_00)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func aReusedKSNIsDeclinedAndLeavesTheATCWhereItWas(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let token = try await harness.login()
            let first = try await Self.post(
                harness, try Self.sale("mastercard-2series", amount: 5_00, atc: 5, ksnCounter: 70_001),
                token: token)
            #expect(first.status == .approved)
            // A higher ATC, but card data sealed under a KSN already used: a replay.
            let reused = try await Self.post(
                harness, try Self.sale("mastercard-2series", amount: 6_00, atc: 30, ksnCounter: 70_001),
                token: token)
            #expect(reused.status == .declined && reused.responseCode == "63")
            #expect(reused.acquirerMessage?.hasPrefix("replayed cryptogram: KSN ") == true)
            // The declined request did not raise the card's counter to 30.
            let next = try await Self.post(
                harness, try Self.sale("mastercard-2series", amount: 7_00, atc: 6), token: token)
            #expect(next.status == .approved)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func concurrentReplaysOfOneCryptogramChargeItOnce(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let token = try await harness.login()
            let request = try Self.sale("discover", amount: 8_00, atc: 9, duplicateCheck: false)
            let codes = try await withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<6 {
                    group.addTask { try await Self.post(harness, request, token: token).responseCode }
                }
                return try await group.reduce(into: [String?]()) { $0.append($1) }
            }
            #expect(codes.sorted { ($0 ?? "") < ($1 ?? "") } == ["00", "63", "63", "63", "63", "63"])
            #expect(try await Self.ledger(harness).approved == 1)
        }
    }

    @Test func theCountersSurviveARestartOnTheSameDatabase() async throws {
        let clock = ManualDateSource()
        let before = try await GatewayHarness.start(clock: clock)
        let request = try Self.sale("amex", amount: 21_00, atc: 40)
        do {
            let token = try await before.login()
            #expect(try await Self.post(before, request, token: token).status == .approved)
        } catch {
            await before.stop()
            throw error
        }
        await before.stop(removingFiles: false)

        // The same file again: the bootstrap credentials are shown only on the first start.
        let restarted = try await SandboxGateway.start(
            SandboxGatewayConfiguration(
                host: "127.0.0.1", port: 0,
                databasePath: before.directory.appendingPathComponent("gateway.sqlite").path,
                now: clock.dateProvider, passwordHashRounds: 1_000, logLevel: .critical))
        let after = GatewayHarness(
            gateway: restarted, clock: clock, directory: before.directory, credentials: before.credentials)
        do {
            let token = try await after.login()
            let replay = try await Self.post(after, request, token: token)
            #expect(replay.status == .declined && replay.responseCode == "63")
            let lower = try await Self.post(
                after, try Self.sale("amex", amount: 22_00, atc: 39), token: token)
            #expect(lower.status == .declined && lower.responseCode == "63")
            #expect(try await Self.ledger(after).approved == 1)
        } catch {
            await after.stop()
            throw error
        }
        await after.stop()
    }
}
