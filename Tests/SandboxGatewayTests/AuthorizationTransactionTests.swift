import Foundation
import GRDB
import GatewayAPI
import MPOSCore
import Synchronization
import Testing

@testable import SandboxGateway

/// Counts the commits of the gateway's writer connection.
@Suite(.timeLimit(.minutes(2)))
final class CommitCounter: TransactionObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var commits = 0

    var count: Int { lock.withLock { commits } }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidCommit(_ db: Database) { lock.withLock { commits += 1 } }
    func databaseDidRollback(_ db: Database) {}
}

/// An authorisation writes its idempotency record, its decision and its ledger row in one
/// transaction, which concurrent authorisations share.
@Suite(.timeLimit(.minutes(2))) struct AuthorizationTransactionTests {
    static func observeCommits(_ harness: GatewayHarness) throws -> CommitCounter {
        let counter = CommitCounter()
        try harness.gateway.environment.store.sqliteWriter.add(transactionObserver: counter, extent: .observerLifetime)
        return counter
    }

    static func ledgerCount(_ harness: GatewayHarness) throws -> Int {
        try harness.gateway.environment.store.sqliteWriter.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM payment_transaction") ?? 0
        }
    }

    @Test func anAuthorizationCommitsOnceWithItsIdempotencyRecord() async throws {
        try await GatewayHarness.with { harness in
            let token = try await harness.login()
            let request = try PaymentHTTPTests.authorize(SimulatedTerminal.card("visa-credit"), amount: 3_21)
            let key = PaymentHTTPTests.key()
            let commits = try Self.observeCommits(harness)
            let first = try await PaymentHTTPTests.post(
                harness, GatewayPaths.authorizeCard, request, token: token, key: key)
            #expect(first.status == 200)
            #expect(try first.decode(Transaction.self).status == .approved)
            // Claim, ledger row and stored answer: one commit (it was three).
            #expect(commits.count == 1)

            let stored = try harness.gateway.environment.store.sqliteWriter.read { db in
                try Row.fetchOne(
                    db, sql: "SELECT state, httpStatus, response FROM idempotencyKey WHERE key = ?",
                    arguments: [key])
            }
            let state: String? = stored?["state"]
            let status: Int? = stored?["httpStatus"]
            let response: Data? = stored?["response"]
            #expect(state == "completed" && status == 200 && response == first.body)

            let replay = try await PaymentHTTPTests.post(
                harness, GatewayPaths.authorizeCard, request, token: token, key: key)
            #expect(replay.body == first.body)
            #expect(replay.header(GatewayHeaders.idempotentReplayed) == "true")
            #expect(try Self.ledgerCount(harness) == 1)
        }
    }

    /// Where writes run one at a time, the key is looked up and inserted with its answer: one
    /// write of its row, not a claim and then its completion.
    @Test func aNewKeyIsWrittenOnceWithItsAnswerOnSQLite() async throws {
        try await GatewayHarness.with { harness in
            let token = try await harness.login()
            let request = try PaymentHTTPTests.authorize(SimulatedTerminal.card("visa-credit"), amount: 4_32)
            let changes = RowChanges(table: "idempotencyKey")
            try harness.gateway.environment.store.sqliteWriter.add(transactionObserver: changes, extent: .observerLifetime)
            let first = try await PaymentHTTPTests.post(
                harness, GatewayPaths.authorizeCard, request, token: token, key: PaymentHTTPTests.key())
            #expect(first.status == 200)
            #expect(changes.kinds == ["insert"])
        }
    }

    @Test func aRefusedCardIsStoredWithTheKeyAndReplayed() async throws {
        try await GatewayHarness.with { harness in
            let token = try await harness.login()
            var garbled = try PaymentHTTPTests.authorize(SimulatedTerminal.card("visa-credit"), amount: 2_02)
            garbled.encryptedCardData = String(repeating: "00", count: 48)
            let key = PaymentHTTPTests.key()
            let commits = try Self.observeCommits(harness)
            let first = try await PaymentHTTPTests.post(
                harness, GatewayPaths.authorizeCard, garbled, token: token, key: key)
            #expect(first.status == 422 && first.error?.code == GatewayErrorCode.declinedValidation)
            #expect(commits.count == 1)
            let replay = try await PaymentHTTPTests.post(
                harness, GatewayPaths.authorizeCard, garbled, token: token, key: key)
            #expect(replay.status == 422 && replay.body == first.body)
            #expect(replay.header(GatewayHeaders.idempotentReplayed) == "true")
            #expect(try Self.ledgerCount(harness) == 0)
        }
    }

    @Test func concurrentRepeatsOfOneKeyAuthorizeOnce() async throws {
        try await GatewayHarness.with { harness in
            let token = try await harness.login()
            let request = try PaymentHTTPTests.authorize(SimulatedTerminal.card("discover"), amount: 7_77)
            let key = PaymentHTTPTests.key()
            let replies = try await withThrowingTaskGroup(of: GatewayHarness.Reply.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await PaymentHTTPTests.post(
                            harness, GatewayPaths.authorizeCard, request, token: token, key: key)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(replies.allSatisfy { $0.status == 200 && $0.body == replies[0].body })
            #expect(replies.filter { $0.header(GatewayHeaders.idempotentReplayed) == nil }.count == 1)
            #expect(try Self.ledgerCount(harness) == 1)
        }
    }

    @Test func concurrentAuthorizationsAllCommitWithTheirKeys() async throws {
        try await GatewayHarness.with { harness in
            let token = try await harness.login()
            let cards = ["visa-credit", "mastercard-2series", "discover", "amex"]
            let requests = try (0..<16).map { i in
                try PaymentHTTPTests.authorize(
                    SimulatedTerminal.card(cards[i % cards.count]), amount: Int64(1_00 + i),
                    duplicateCheck: false)
            }
            let replies = try await withThrowingTaskGroup(of: GatewayHarness.Reply.self) { group in
                for request in requests {
                    group.addTask {
                        try await PaymentHTTPTests.post(
                            harness, GatewayPaths.authorizeCard, request, token: token)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(replies.allSatisfy { $0.status == 200 })
            #expect(Set(replies.map(\.body)).count == 16)
            #expect(try Self.ledgerCount(harness) == 16)
            let completed = try await harness.gateway.environment.store.sqliteWriter.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM idempotencyKey WHERE state = 'completed'")
                    ?? 0
            }
            #expect(completed == 16)
        }
    }

    /// When the test rows were made: 2023-11-14 22:13:20 UTC.
    static let rowDate = Date(timeIntervalSince1970: 1_700_000_000)

    static func row(
        _ id: Int, card: String?, kind: TransactionKind, status: FinancialStatus, approved: Int64
    ) -> LedgerTransaction {
        var row = LedgerTransaction(
            id: "txn_" + String(repeating: "0", count: 23) + String(id % 10), merchantId: "m_1", kind: kind,
            status: status, amount: approved, currency: .eur, now: rowDate)
        row.cardFingerprint = card
        row.amountApproved = approved
        return row
    }

    /// Every card's running total against the sum over its ledger rows.
    static func expectSpendMatchesLedger(_ db: Database, cards: [String]) throws {
        let db = SQLiteSession(db)
        for card in cards {
            let running = try PaymentService.spentSoFar(db, fingerprint: card, on: Self.rowDate)
            let summed = try PaymentService.spentSoFarFromLedger(db, fingerprint: card, on: Self.rowDate)
            #expect(running == summed, "card \(card)")
        }
    }

    @Test func theCardSpendTotalFollowsEveryLedgerChange() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "spend-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try GatewayStore(path: directory.appendingPathComponent("ledger.sqlite").path)
        try store.sqliteWriter.write { db in
            var sale = Self.row(1, card: "a", kind: .sale, status: .approved, approved: 100_00)
            var auth = Self.row(2, card: "a", kind: .authorization, status: .approved, approved: 50_00)
            var other = Self.row(
                3, card: "b", kind: .preAuthorization, status: .partiallyApproved, approved: 7_00)
            var declined = Self.row(4, card: "a", kind: .sale, status: .declined, approved: 0)
            var refund = Self.row(5, card: "a", kind: .refund, status: .approved, approved: 30_00)
            var cash = Self.row(6, card: nil, kind: .cash, status: .approved, approved: 9_00)
            for index in [0, 1, 2, 3, 4, 5] {
                switch index {
                case 0: try sale.insert(db)
                case 1: try auth.insert(db)
                case 2: try other.insert(db)
                case 3: try declined.insert(db)
                case 4: try refund.insert(db)
                default: try cash.insert(db)
                }
            }
            try Self.expectSpendMatchesLedger(db, cards: ["a", "b", "c"])
            #expect(try PaymentService.spentSoFar(SQLiteSession(db), fingerprint: "a", on: Self.rowDate) == 150_00)
            sale.amountTip = 5_00
            try sale.update(db)
            sale.amountRefunded = 20_00
            sale.status = .refunded
            try sale.update(db)
            auth.status = .reversed
            try auth.update(db)
            other.cardFingerprint = "c"
            try other.update(db)
            declined.status = .approved
            declined.amountApproved = 1_00
            try declined.update(db)
            try Self.expectSpendMatchesLedger(db, cards: ["a", "b", "c"])
            #expect(try PaymentService.spentSoFar(SQLiteSession(db), fingerprint: "a", on: Self.rowDate) == 86_00)
            _ = try sale.delete(db)
            try Self.expectSpendMatchesLedger(db, cards: ["a", "b", "c"])
        }
    }

    @Test func theCardSpendTotalIsFilledFromAnExistingLedger() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "spend-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let pool = try DatabasePool(path: directory.appendingPathComponent("ledger.sqlite").path)
        var migrator = DatabaseMigrator()
        GatewayMigrations.register(&migrator)
        try migrator.migrate(pool, upTo: "payments-2-card-spend-index")
        try pool.write { db in
            // The columns of that version: a ledger row's later ones (its idempotency key) are not there yet.
            for row in [
                Self.row(1, card: "a", kind: .sale, status: .approved, approved: 12_00),
                Self.row(2, card: "a", kind: .authorization, status: .partiallyApproved, approved: 3_00),
            ] {
                let columns = row.storedColumns.filter { $0.name != "seq" && $0.name != "idempotency_key" }
                try db.execute(
                    sql: "INSERT INTO payment_transaction (\(columns.map(\.name).joined(separator: ", "))) VALUES ("
                        + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")",
                    arguments: StatementArguments(columns.map(\.value)))
            }
        }
        try migrator.migrate(pool)
        try pool.read { db in
            #expect(try PaymentService.spentSoFar(SQLiteSession(db), fingerprint: "a", on: Self.rowDate) == 15_00)
            try Self.expectSpendMatchesLedger(db, cards: ["a"])
        }
    }

    /// Every index is one more page in each authorisation's commit: the ledger and the
    /// idempotency keys keep only those a query uses, the refund lookup still finds its
    /// original through the partial index, and the attempt lookup its row by key.
    @Test func eachLedgerIndexServesAQuery() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "indexes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try GatewayStore(path: directory.appendingPathComponent("ledger.sqlite").path)
        try store.sqliteWriter.read { db in
            func indexes(_ table: String) throws -> Set<String> {
                Set(
                    try String.fetchAll(
                        db,
                        sql:
                            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL",
                        arguments: [table]))
            }
            #expect(
                try indexes("payment_transaction") == [
                    "payment_transaction_merchant_time_covering", "payment_transaction_fingerprint",
                    "payment_transaction_original",
                    "payment_transaction_batch", "payment_transaction_attempt",
                ])
            #expect(try indexes("idempotencyKey") == ["idempotencyKey_on_createdAt"])
            let plan = try Row.fetchAll(
                db,
                sql:
                    "EXPLAIN QUERY PLAN SELECT * FROM payment_transaction WHERE merchant_id = ? AND original_id = ?",
                arguments: ["m_1", "txn_1"]
            ).map { $0["detail"] as String? ?? "" }.joined(separator: "; ")
            #expect(plan.contains("payment_transaction_original"), "\(plan)")
            let attempt = try Row.fetchAll(
                db,
                sql:
                    "EXPLAIN QUERY PLAN SELECT * FROM payment_transaction WHERE merchant_id = ? AND idempotency_key = ?",
                arguments: ["m_1", "k_1"]
            ).map { $0["detail"] as String? ?? "" }.joined(separator: "; ")
            #expect(attempt.contains("payment_transaction_attempt"), "\(attempt)")
        }
    }

    @Test func aLedgerRowRoundTripsThroughItsHandWrittenColumns() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ledger-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try GatewayStore(path: directory.appendingPathComponent("ledger.sqlite").path)
        // Milliseconds that a binary fraction holds exactly, so the date reads back equal.
        let time = Date(timeIntervalSince1970: 1_700_000_000.125)
        try store.sqliteWriter.write { db in
            var row = LedgerTransaction(
                id: "txn_0123456789abcdef01234567", merchantId: "m_1", kind: .sale, status: .approved,
                amount: 12_34, currency: .eur, now: time)
            row.originalId = "txn_00000000000000000000000a"
            row.amountApproved = 12_00
            row.amountCaptured = 11_00
            row.amountRefunded = 1_00
            row.amountTip = 50
            row.responseCode = "10"
            row.authCode = "ABC123"
            row.acquirerMessage = "Partially approved"
            row.batchId = try PaymentService.openBatch(SQLiteSession(db), merchant: "m_1", now: time)
            row.cardFingerprint = "f"
            row.maskedPan = "411111******1111"
            row.brand = "visa"
            row.expiry = "4912"
            row.cardholderName = "CREDIT/VISA"
            row.entryMode = "chip"
            row.cvm = "onlinePIN"
            row.aid = "A0000000031010"
            row.applicationLabel = "VISA"
            row.tvr = "0000000000"
            row.tsi = "E800"
            row.issuerAuthenticationData = "0102"
            row.customerReference = "c"
            row.externalId = "e"
            row.descriptor = "SHOP"
            row.captureMode = "completedSale"
            row.allowPartial = true
            row.updatedAt = time.addingTimeInterval(1)
            try row.insert(db)
            #expect(row.seq != nil)
            let read = try LedgerTransaction.filter(Column("id") == row.id).fetchOne(db)
            #expect(read == row)
            row.status = .refunded
            try row.update(db)
            #expect(try LedgerTransaction.filter(Column("id") == row.id).fetchOne(db) == row)

            // The authorization path's own insert stores the same row.
            var cached = row
            cached.seq = nil
            cached.id = "txn_0123456789abcdef01234568"
            try cached.insertCached(SQLiteSession(db))
            #expect(cached.seq == row.seq.map { $0 + 1 })
            #expect(try LedgerTransaction.filter(Column("id") == cached.id).fetchOne(db) == cached)
            let texts = try Row.fetchAll(
                db, sql: "SELECT created_at, updated_at FROM payment_transaction ORDER BY seq")
            #expect(texts.map { $0[0] as String } == ["2023-11-14 22:13:20.125", "2023-11-14 22:13:20.125"])
            #expect(texts.map { $0[1] as String } == ["2023-11-14 22:13:21.125", "2023-11-14 22:13:21.125"])
        }
    }

    @Test func aTokenRemovedDuringItsResolutionIsNotCachedAgain() {
        let cache = TokenCache<AccessTokenEntry>()
        let now = Date(timeIntervalSince1970: 1_000)
        let entry = AccessTokenEntry(merchantID: "m", userID: "u", expiresAt: now.addingTimeInterval(60))
        // A request reads the generation, then the row; a logout commits and removes meanwhile.
        let before = cache.generation
        cache.remove { key, _ in key == "t" }
        cache.insert(entry, for: "t", now: now, unlessRemovedSince: before)
        #expect(cache["t"] == nil)
        // Without a removal in between, the row is kept; a removal by user drops it.
        cache.insert(entry, for: "t", now: now, unlessRemovedSince: cache.generation)
        #expect(cache["t"] == entry)
        cache.remove { _, entry in entry.userID == "other" }
        #expect(cache["t"] == entry)
        cache.remove { _, entry in entry.userID == "u" }
        #expect(cache["t"] == nil && cache.count == 0)
    }

    @Test func theClientTokenCacheStaysBounded() {
        let cache = TokenCache<ClientTokenEntry>(capacity: 2)
        let now = Date(timeIntervalSince1970: 1_000)
        cache.insert(
            .init(merchantID: "m", expiresAt: now.addingTimeInterval(-1)), for: "old", now: now,
            unlessRemovedSince: 0)
        cache.insert(
            .init(merchantID: "m", expiresAt: now.addingTimeInterval(60)), for: "a", now: now,
            unlessRemovedSince: 0)
        cache.insert(
            .init(merchantID: "m", expiresAt: now.addingTimeInterval(60)), for: "b", now: now,
            unlessRemovedSince: 0)
        // Full: the expired token made room.
        #expect(cache["old"] == nil && cache["a"] != nil && cache["b"] != nil)
        cache.insert(
            .init(merchantID: "m", expiresAt: now.addingTimeInterval(60)), for: "c", now: now,
            unlessRemovedSince: 0)
        #expect(cache.count <= 2 && cache["c"]?.merchantID == "m")
    }
}

/// The kinds of change (`insert`, `update`, `delete`) made to one table's rows on the writer
/// connection, in order.
final class RowChanges: TransactionObserver, Sendable {
    let table: String
    private let seen = Mutex<[String]>([])

    init(table: String) { self.table = table }

    var kinds: [String] { seen.withLock { $0 } }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { eventKind.tableName == table }
    func databaseDidChange(with event: DatabaseEvent) {
        let kind = "\(event.kind)"
        seen.withLock { $0.append(kind) }
    }
    func databaseDidCommit(_ db: Database) {}
    func databaseDidRollback(_ db: Database) {}
}
