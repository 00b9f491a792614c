import EMV
import Foundation
import GatewayAPI
import Hummingbird
import Logging
import MPOSCore
import MPOSTestSupport
import SandboxCards
import SandboxGateway
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(2)), .postgresServer) struct ReportingHTTPTests {
    @Test(arguments: GatewayTestEngine.allCases) func searchStatisticsInventory(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            var token = try await harness.login()
            let visa = SimulatedTerminal.card("visa-credit")
            var ids: [String] = []
            for amount: Int64 in [12_00, 25_50, 10_00, 40_00] {
                let tx = try await PaymentHTTPTests.post(
                    harness, GatewayPaths.authorizeCard, try PaymentHTTPTests.authorize(visa, amount: amount),
                    token: token
                ).decode(Transaction.self)
                ids.append(tx.id.rawValue)
            }
            _ = try await PaymentHTTPTests.post(
                harness, GatewayPaths.transaction(GatewayPaths.refund, id: ids[3]),
                RefundRequest(amount: 40_00),
                token: token)
            harness.clock.advance(by: 40 * 24 * 3600)
            token = try await harness.login()
            _ = try await PaymentHTTPTests.post(
                harness, GatewayPaths.cashPayment, CashPaymentRequest(amount: 5_00, currency: .eur),
                token: token)

            func search(_ request: TransactionSearchRequest) async throws -> TransactionPage {
                let reply = try await harness.send(
                    .post, GatewayPaths.searchTransactions, json: request, token: token)
                #expect(reply.status == 200)
                return try reply.decode(TransactionPage.self)
            }
            #expect(try await search(TransactionSearchRequest()).totalCount == 6)
            #expect(
                try await search(TransactionSearchRequest(status: .declined)).items.map(\.requestedAmount)
                    == [10_00])
            #expect(try await search(TransactionSearchRequest(status: .refunded)).totalCount == 2)
            #expect(
                try await search(TransactionSearchRequest(text: "25")).items.first?.requestedAmount == 25_50)
            #expect(try await search(TransactionSearchRequest(text: ids[1])).totalCount == 1)
            #expect(try await search(TransactionSearchRequest(text: "VISA")).totalCount >= 4)
            let today = String(ISO8601DateFormatter().string(from: harness.clock.now()).prefix(10))
            #expect(try await search(TransactionSearchRequest(text: today)).totalCount == 1)
            let paged = try await search(TransactionSearchRequest(page: 2, pageSize: 4, order: .ascending))
            #expect(paged.items.count == 2 && paged.page == 2)
            let badPage = try await harness.send(
                .post, GatewayPaths.searchTransactions, json: TransactionSearchRequest(pageSize: 0),
                token: token)
            #expect(badPage.status == 400)

            let from = harness.clock.now().addingTimeInterval(-60 * 24 * 3600)
            let stats = try await harness.send(
                .post, GatewayPaths.statistics,
                json: StatisticsRequest(
                    from: from, to: harness.clock.now().addingTimeInterval(1), grouping: .month, byStatus: true),
                token: token)
            #expect(stats.status == 200)
            let response = try stats.decode(StatisticsResponse.self)
            let total = response.buckets.reduce(0) { $0 + $1.turnover }
            #expect(total == 12_00 + 25_50 + 40_00 - 40_00 + 5_00)
            #expect(response.buckets.allSatisfy { $0.byStatus != nil })
            #expect(response.buckets.flatMap { $0.byStatus ?? [] }.contains { $0.status == .declined })
            for grouping in StatisticsGrouping.allCases {
                let reply = try await harness.send(
                    .post, GatewayPaths.statistics,
                    json: StatisticsRequest(from: from, to: harness.clock.now().addingTimeInterval(1), grouping: grouping),
                    token: token)
                #expect(try reply.decode(StatisticsResponse.self).buckets.reduce(0) { $0 + $1.count } == 5)
            }

            // Inventory: none, upload, stale version refused, download.
            #expect(try await harness.send(.get, GatewayPaths.inventoryVersion, token: token).status == 404)
            let csv = "sku,name,price\n1,Coffee,350\n2,\"Tea, green\",300\n"
            let upload = try await harness.send(
                .put, GatewayPaths.inventory, json: InventoryUploadRequest(version: 3, csv: csv), token: token
            )
            #expect(upload.status == 200)
            #expect(try upload.decode(InventoryVersion.self).itemCount == 2)
            let stale = try await harness.send(
                .put, GatewayPaths.inventory, json: InventoryUploadRequest(version: 3, csv: csv), token: token
            )
            #expect(stale.status == 409)
            let broken = try await harness.send(
                .put, GatewayPaths.inventory, json: InventoryUploadRequest(version: 4, csv: "a,b\n1\n"),
                token: token)
            #expect(broken.status == 400)
            let document = try await harness.send(.get, GatewayPaths.inventory, token: token).decode(
                InventoryDocument.self)
            #expect(document.csv == csv && document.version.version == 3)
            #expect(
                try await harness.send(.get, GatewayPaths.inventoryVersion, token: token).decode(
                    InventoryVersion.self
                ).sha256.count == 64)
        }
    }

    /// Ranges are half-open, as the API says (`to` excluded): a transaction made at the instant
    /// one day ends and the next begins is in the next day's search and statistics only.
    @Test func aTransactionAtMidnightIsTheNextDaysOnly() async throws {
        let midnight = Date(timeIntervalSince1970: 1_803_945_600)  // 2027-03-02T00:00:00Z
        try await GatewayHarness.with(clock: ManualDateSource(start: midnight)) { harness in
            let token = try await harness.login()
            let cash = try await PaymentHTTPTests.post(
                harness, GatewayPaths.cashPayment, CashPaymentRequest(amount: 5_00, currency: .eur), token: token)
            #expect(cash.status == 200)
            for (from, count) in [(midnight.addingTimeInterval(-86_400), 0), (midnight, 1)] {
                let range = (from: from, to: from.addingTimeInterval(86_400))
                let page = try await harness.send(
                    .post, GatewayPaths.searchTransactions,
                    json: TransactionSearchRequest(from: range.from, to: range.to), token: token)
                #expect(try page.decode(TransactionPage.self).totalCount == count, "from \(from)")
                let stats = try await harness.send(
                    .post, GatewayPaths.statistics,
                    json: StatisticsRequest(from: range.from, to: range.to, grouping: .day), token: token)
                let buckets = try stats.decode(StatisticsResponse.self).buckets
                #expect(buckets.map(\.count) == (count == 0 ? [] : [1]), "from \(from)")
            }
        }
    }

    @Test func webhooksAreSignedRetriedAndLogged() async throws {
        let received = Mutex<[(body: Data, signature: String?, eventID: String?)]>([])
        let secret = "whsec-0123456789abcdef"
        // The dispatcher's backoff runs on this clock: the test moves it instead of waiting.
        let webhookClock = ManualClock()
        try await GatewayHarness.with(webhookClock: webhookClock, additionalRoutes: { router, _ in
            router.post("/test-hook") { request, context in
                let body = try await request.body.collect(upTo: 1 << 20)
                let count = received.withLock { list in
                    list.append(
                        (
                            Data(body.readableBytesView),
                            request.headers[HTTPField.Name(WebhookSignature.headerName)!],
                            request.headers[HTTPField.Name(WebhookSignature.eventIDHeaderName)!]
                        ))
                    return list.count
                }
                // The first delivery fails, so the dispatcher retries after its backoff.
                return Response(status: count == 1 ? .internalServerError : .ok)
            }
        }) { harness in
            let token = try await harness.login()
            let config = try await harness.send(
                .put, GatewayPaths.webhookConfig,
                json: WebhookConfig(
                    callbackURL: "http://127.0.0.1:\(harness.gateway.port)/test-hook", secret: secret),
                token: token)
            #expect(config.status == 200)
            #expect(try config.decode(WebhookConfigResponse.self).hasSecret)
            let bad = try await harness.send(
                .put, GatewayPaths.webhookConfig, json: WebhookConfig(callbackURL: "ftp://x", secret: nil),
                token: token)
            #expect(bad.status == 400)

            let tx = try await PaymentHTTPTests.post(
                harness, GatewayPaths.authorizeCard,
                try PaymentHTTPTests.authorize(SimulatedTerminal.card("amex"), amount: 18_00), token: token
            ).decode(Transaction.self)
            // The first attempt failed, was logged, and the dispatcher waits 1 s on the injected
            // clock before the next (a dispatcher on another clock would retry on its own).
            while webhookClock.nextDeadline == nil, received.withLock({ $0.count }) < 2, !Task.isCancelled {
                await Task.yield()
            }
            #expect(webhookClock.nextDeadline?.offset == .seconds(1))
            let first = try await harness.send(.get, GatewayPaths.webhookDeliveries, token: token)
                .decode(WebhookDeliveryList.self).deliveries
            #expect(first.map(\.attempt) == [1] && first.allSatisfy { !$0.succeeded })
            #expect(received.withLock { $0.count } == 1)
            webhookClock.advance(by: .seconds(1))
            // The second attempt is logged once its answer is in; no real time passes meanwhile.
            var deliveries: [WebhookDelivery] = []
            while !deliveries.contains(where: \.succeeded), !Task.isCancelled {
                deliveries = try await harness.send(.get, GatewayPaths.webhookDeliveries, token: token)
                    .decode(WebhookDeliveryList.self).deliveries
                await Task.yield()
            }
            #expect(deliveries.map(\.attempt).sorted() == [1, 2])
            #expect(deliveries.allSatisfy { $0.transactionID == tx.id })
            let last = try #require(received.withLock { $0.last })
            // Signed at the gateway's (manual) time, over the event id and the body.
            let signature = try WebhookSignature.verify(
                header: last.signature ?? "", eventID: last.eventID ?? "", body: Array(last.body), secret: secret,
                now: harness.clock.now())
            #expect(signature.date == harness.clock.now())
            let payload = try GatewayJSON.makeDecoder().decode(WebhookPayload.self, from: last.body)
            #expect(payload.uniqueID == tx.id.rawValue && payload.state == .approved)
            #expect(payload.cardNumber == tx.card?.maskedPAN)
            PaymentCallbackTests.expectAcceptCallbackFields(in: last.body)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func aPageBeyondEveryRowIsEmptyEvenAtTheLargestPageNumber(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let token = try await harness.login()
            let reply = try await harness.send(
                .post, GatewayPaths.searchTransactions,
                body: Data(#"{"page": 9223372036854775807, "pageSize": 200}"#.utf8), token: token)
            #expect(reply.status == 200)
            let page = try reply.decode(TransactionPage.self)
            #expect(page.items.isEmpty)
            #expect(page.page == Int.max)
        }
    }
}

/// Captures every log line of the process, whatever its level, so a test can search them.
@Suite(.timeLimit(.minutes(2)))
final class CapturedLogs: @unchecked Sendable {
    static let shared: CapturedLogs = {
        let logs = CapturedLogs()
        LoggingSystem.bootstrap { label in Handler(label: label, sink: logs) }
        return logs
    }()

    private let lines = Mutex<[String]>([])
    var text: String { lines.withLock { $0.joined(separator: "\n") } }
    func append(_ line: String) { lines.withLock { $0.append(line) } }

    struct Handler: LogHandler {
        let label: String
        let sink: CapturedLogs
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level {
            get { .trace }
            set {}
        }
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            sink.append("\(event.level) \(label): \(event.message) \(merged)")
        }
    }
}

@Suite(.timeLimit(.minutes(2))) struct CardNumberLeakTests {
    @Test func noFullPANInDatabaseFilesOrLogs() async throws {
        let logs = CapturedLogs.shared
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pan-scan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = ManualDateSource()
        let gateway = try await SandboxGateway.start(
            SandboxGatewayConfiguration(
                port: 0, databasePath: directory.appendingPathComponent("gateway.sqlite").path,
                now: clock.dateProvider,
                passwordHashRounds: 1_000, logLevel: .trace))
        let credentials = try #require(gateway.credentials)
        let harness = GatewayHarness(
            gateway: gateway, clock: clock, directory: directory, credentials: credentials)
        let token = try await harness.login()
        var made = 0
        for card in SandboxCards.all {
            for (index, amount) in [Int64(15_00), 10_00, 1_124].enumerated() {
                let mode: CardEntryMode? =
                    card.interfaces.contains(.chip) && !card.behaviours.magstripeFallback ? .chip : .magstripe
                guard
                    let data = try? SimulatedTerminal.authorization(
                        card: card, amount: amount, entryMode: mode)
                else { continue }
                let request = AuthorizeCardRequest(
                    kind: index == 1 ? .authorization : .sale,
                    parameters: PaymentParameters(amount: amount, currency: .eur, duplicateCheck: false),
                    emvData: Hex.encode(data.emvData), encryptedCardData: Hex.encode(data.encryptedCardData),
                    ksn: Hex.encode(data.ksn), maskedPAN: data.maskedPAN, entryMode: data.entryMode,
                    cvm: data.cvm)
                let reply = try await PaymentHTTPTests.post(
                    harness, GatewayPaths.authorizeCard, request, token: token)
                #expect(reply.status == 200 || reply.status == 422, "\(card.id): \(reply.status)")
                if reply.status == 200 { made += 1 }
                let body = String(decoding: reply.body, as: UTF8.self)
                #expect(!body.contains(card.pan.unmaskedDigits), "\(card.id) leaked in a response")
            }
        }
        #expect(made >= SandboxCards.all.count)
        // Stop the server but keep the files, including the WAL, for the scan.
        await gateway.shutdown()
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.contains("gateway.sqlite"), "\(files)")
        var haystacks: [(String, [UInt8])] = files.compactMap { name in
            FileManager.default.contents(atPath: directory.appendingPathComponent(name).path).map {
                (name, Array($0))
            }
        }
        // The scan only means something if the gateway's logs were captured, masked card numbers included.
        #expect(logs.text.contains("card payment recorded"))
        haystacks.append(("logs", Array(logs.text.utf8)))
        for card in SandboxCards.all {
            let digits = Array(card.pan.unmaskedDigits.utf8)
            let bcd = try Hex.decode(
                card.pan.unmaskedDigits.count % 2 == 0
                    ? card.pan.unmaskedDigits : card.pan.unmaskedDigits + "F")
            for (name, bytes) in haystacks {
                #expect(!contains(bytes, digits), "\(card.id): full PAN in \(name)")
                #expect(!contains(bytes, bcd), "\(card.id): BCD PAN in \(name)")
            }
        }
    }

    private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool { ByteSearch.contains(haystack, needle) }
}
