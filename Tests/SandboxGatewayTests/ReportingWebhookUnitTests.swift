import EMV
import Foundation
import GatewayAPI
import MPOSCore
import Synchronization
import Testing

@testable import SandboxGateway

@Suite(.timeLimit(.minutes(2))) struct StatisticsUnitTests {
    private func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test func bucketLabels() {
        let d = date("2026-11-23T10:00:00Z")
        #expect(StatisticsPeriod.day.bucket(for: d) == "2026-11-23")
        #expect(StatisticsPeriod.week.bucket(for: d) == "2026-W48")
        #expect(StatisticsPeriod.month.bucket(for: d) == "2026-11")
        #expect(StatisticsPeriod.quarter.bucket(for: d) == "2026-Q4")
        #expect(StatisticsPeriod.year.bucket(for: d) == "2026")
        // 1 January 2027 is a Friday: ISO week 53 of 2026.
        #expect(StatisticsPeriod.week.bucket(for: date("2027-01-01T00:00:00Z")) == "2026-W53")
        #expect(StatisticsPeriod.quarter.bucket(for: date("2026-03-31T23:59:59Z")) == "2026-Q1")
    }

    @Test func figuresAndNesting() throws {
        var aggregator = StatisticsAggregator(period: .month, nestByStatus: true)
        aggregator.add(amount: 100, currency: "EUR", status: .approved, at: date("2026-11-01T00:00:00Z"))
        aggregator.add(amount: 300, currency: "EUR", status: .declined, at: date("2026-11-30T00:00:00Z"))
        aggregator.add(amount: 250, currency: "EUR", status: .approved, at: date("2026-12-01T00:00:00Z"))
        aggregator.add(amount: 999, currency: "USD", status: .approved, at: date("2026-11-05T00:00:00Z"))
        let result = aggregator.result
        #expect(result.map(\.period) == ["2026-11", "2026-11", "2026-12"])
        #expect(result.map(\.currency) == ["EUR", "USD", "EUR"])
        let november = result[0].figures
        #expect(
            november.count == 2 && november.turnover == 400 && november.minimum == 100
                && november.maximum == 300)
        #expect(november.average == 200)
        #expect(result[0].byStatus?["approved"]?.count == 1)
        #expect(result[0].byStatus?["declined"]?.turnover == 300)
        #expect(StatisticsFigures().average == nil)
        let json = String(decoding: try JSONEncoder().encode(november), as: UTF8.self)
        #expect(json.contains("\"average\":200"))
    }
}

@Suite(.timeLimit(.minutes(2))) struct SearchUnitTests {
    @Test func validation() {
        #expect(throws: PaymentRuleViolation.self) { try TransactionSearch(page: 0) }
        #expect(throws: PaymentRuleViolation.self) { try TransactionSearch(pageSize: 201) }
        #expect(throws: PaymentRuleViolation.self) { try TransactionSearch(order: "sideways") }
        #expect(throws: PaymentRuleViolation.self) { try TransactionSearch(status: "lost") }
    }

    @Test func freeTextMatchesDateAmountIdAndName() throws {
        let byDate = try TransactionSearch(status: "approved", text: " 2026-11-23 ").condition(merchant: "m1")
        #expect(byDate.sql.contains("(created_at >= ? AND created_at < ?)"))
        #expect(byDate.sql.contains("status IN ('approved', 'partiallyApproved')"))
        let byAmount = try TransactionSearch(text: "12").condition(merchant: "m1")
        #expect(byAmount.sql.contains("amount_major = ?"))
        #expect(!byAmount.sql.contains("substr("))
        let byName = try TransactionSearch(text: "100%_x").condition(merchant: "m1")
        #expect(!byName.sql.contains("amount_major"))
        #expect(byName.sql.contains("LOWER(cardholder_name) LIKE LOWER(?)"))
        #expect(TransactionSearch.escapeLike("100%_x") == "100\\%\\_x")
        #expect(try TransactionSearch(page: 3, pageSize: 10).offset == 20)
    }
}

@Suite(.timeLimit(.minutes(2))) struct InventoryUnitTests {
    @Test func acceptsQuotedFieldsAndCountsRows() throws {
        let csv = "sku,name,price\r\n1,\"Coffee, large\",350\n2,\"Say \"\"hi\"\"\",100\n3,\"two\nlines\",1\n"
        let summary = try InventoryCSV.validate(Array(csv.utf8))
        #expect(summary.columns == ["sku", "name", "price"])
        #expect(summary.rowCount == 3)
    }

    @Test func refusesBrokenFiles() {
        for bad in ["", "a,b\n1\n", "a,b\n\"open,1\n", "a,b\n1,x\"y\n"] {
            #expect(throws: PaymentRuleViolation.self) { try InventoryCSV.validate(Array(bad.utf8)) }
        }
        #expect(throws: PaymentRuleViolation.self) { try InventoryCSV.validate([0xFF, 0xFE, 0x2C]) }
    }
}

@Suite(.timeLimit(.minutes(2))) struct FingerprintAndSignatureTests {
    @Test func fingerprintIsKeyedAndStable() throws {
        let pan = try #require(PAN("4761739001010010"))
        let a = CardFingerprinter(secret: Array(repeating: 1, count: 32))
        let b = CardFingerprinter(secret: Array(repeating: 2, count: 32))
        #expect(a.fingerprint(pan) == a.fingerprint(pan))
        #expect(a.fingerprint(pan) != b.fingerprint(pan))
        #expect(a.fingerprint(pan).count == 64)
        #expect(!a.fingerprint(pan).contains("4761739001010010"))
    }
}

/// A clock whose sleeps return at once and are recorded.
final class RecordingClock: Clock, @unchecked Sendable {
    typealias Duration = Swift.Duration
    struct Instant: InstantProtocol {
        var offset: Swift.Duration
        func advanced(by duration: Swift.Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Swift.Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }
    private let state = Mutex<(now: Instant, sleeps: [Swift.Duration])>((Instant(offset: .zero), []))
    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Swift.Duration { .nanoseconds(1) }
    var sleeps: [Swift.Duration] { state.withLock { $0.sleeps } }
    func sleep(until deadline: Instant, tolerance: Swift.Duration?) async throws {
        state.withLock { s in
            s.sleeps.append(s.now.duration(to: deadline))
            s.now = deadline
        }
    }
}

/// A transport that answers with scripted statuses and records what it was sent; with no
/// status left it fails as an unreachable host would.
final class ScriptedTransport: WebhookTransport, @unchecked Sendable {
    struct Sent {
        var url: URL
        var address: WebhookAddress
        var body: [UInt8]
        var headers: [String: String]
    }

    private let state: Mutex<(statuses: [Int], sent: [Sent])>
    init(statuses: [Int]) { state = Mutex((statuses, [])) }
    var sent: [Sent] { state.withLock { $0.sent } }
    func post(url: URL, connectingTo address: WebhookAddress, body: [UInt8], headers: [String: String])
        async throws(WebhookTransportError) -> Int
    {
        try state.withLock { s throws(WebhookTransportError) in
            s.sent.append(Sent(url: url, address: address, body: body, headers: headers))
            guard !s.statuses.isEmpty else { throw WebhookTransportError(.unreachable) }
            return s.statuses.removeFirst()
        }
    }
}

/// A delivery log in memory.
@Suite(.timeLimit(.minutes(2)))
final class MemoryDeliveryLog: WebhookDeliveryLog, @unchecked Sendable {
    private let attempts = Mutex<[WebhookAttempt]>([])
    var all: [WebhookAttempt] { attempts.withLock { $0 } }
    func record(_ attempt: WebhookAttempt) async { attempts.withLock { $0.append(attempt) } }
}

@Suite(.timeLimit(.minutes(2))) struct WebhookDispatcherTests {
    /// The receivers of these tests listen on loopback.
    static let loopbackAllowed = WebhookDestinations(scopes: [.loopback])

    private func delivery(secret: String? = "k") -> WebhookDispatcher.Delivery {
        .init(
            eventID: "evt_1", merchantID: "m1", transactionID: "txn_1",
            body: Array("{\"uniqueID\":\"txn_1\"}".utf8),
            url: URL(string: "http://127.0.0.1:9/hook")!, secret: secret)
    }

    @Test func backoffDoublesUpToTheCap() {
        let policy = WebhookRetryPolicy(
            maximumAttempts: 8, initialDelay: .seconds(1), maximumDelay: .seconds(10))
        #expect(
            (1...8).map { policy.delay(afterAttempt: $0) } == [
                .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(10), .seconds(10), .seconds(10),
                nil,
            ])
    }

    @Test func retriesWithBackoffAndLogsEachAttempt() async throws {
        let clock = RecordingClock()
        let transport = ScriptedTransport(statuses: [500, 503, 200])
        let log = MemoryDeliveryLog()
        let dispatcher = WebhookDispatcher(
            transport: transport, log: log, destinations: Self.loopbackAllowed, policy: .standard, clock: clock,
            now: { Date(timeIntervalSince1970: 1_800_000_000) })
        await dispatcher.enqueue(delivery())
        await dispatcher.waitUntilIdle()
        #expect(clock.sleeps == [.seconds(1), .seconds(2)])
        #expect(log.all.map(\.attempt) == [1, 2, 3])
        #expect(log.all.map(\.succeeded) == [false, false, true])
        #expect(log.all.map(\.statusCode) == [500, 503, 200])
        let last = try #require(transport.sent.last)
        let signature = try WebhookSignature.verify(
            header: last.headers[WebhookSignature.headerName] ?? "", eventID: "evt_1", body: last.body, secret: "k",
            now: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(signature.timestamp == 1_800_000_000)
        #expect(last.headers[WebhookSignature.attemptHeaderName] == "3")
        #expect(last.headers[WebhookSignature.eventIDHeaderName] == "evt_1")
        #expect(last.address == WebhookAddress("127.0.0.1"))
        #expect(log.all.map(\.failure) == [.httpStatus, .httpStatus, nil])
    }

    @Test func givesUpAfterTheLastAttempt() async {
        let clock = RecordingClock()
        let log = MemoryDeliveryLog()
        let dispatcher = WebhookDispatcher(
            transport: ScriptedTransport(statuses: []), log: log, destinations: Self.loopbackAllowed,
            policy: WebhookRetryPolicy(
                maximumAttempts: 3, initialDelay: .milliseconds(100), maximumDelay: .seconds(1)),
            clock: clock)
        await dispatcher.enqueue(delivery())
        await dispatcher.waitUntilIdle()
        #expect(log.all.count == 3)
        #expect(log.all.allSatisfy { !$0.succeeded && $0.failure == .unreachable && $0.statusCode == nil })
        #expect(log.all.last?.nextAttemptAt == nil)
        #expect(clock.sleeps == [.milliseconds(100), .milliseconds(200)])
    }
}
