import Foundation
import GatewayAPI
import MPOSCore
import MPOSTestSupport
import Synchronization
import Testing

/// Issue 34's bank test: two `mpos gateway serve` processes on one PostgreSQL database and a
/// reader emulator; 32 clients run sales, refunds and voids spread over both instances while
/// one instance is SIGKILLed and restarted. Afterwards every approval a client was told of is
/// charged once, nothing else is charged, and the ledger's sums equal what the clients were told.
@Suite(
    .serialized, .timeLimit(.minutes(3)),
    .enabled(if: LocalPostgres.isInstalled, "PostgreSQL's initdb and pg_ctl are not installed"))
struct BankAcrossInstancesTests {
    static let clients = 32
    static let salesPerClient = 8
    /// A client's sales from this one on wait until the killed instance is back, so that
    /// requests are still being sent to both instances after the restart.
    static let waitsForRestartFrom = 5

    /// What the clients were told, across all of them.
    struct Told {
        var approvedSales: [String: Int64] = [:]
        var declinedSales: Set<String> = []
        var voidedSales: Set<String> = []
        var refunds: [String: Int64] = [:]
    }

    /// What the clients were told and how far they got, shared by their tasks.
    final class Progress: Sendable {
        let told = Mutex(Told())
        let finished = Atomic<Int>(0)
        let finishedAtKill = Atomic<Int>(-1)
    }

    /// The gateway processes alive now, stopped at the end whatever happened.
    final class Fleet: Sendable {
        private let processes = Mutex<[GatewayProcess]>([])
        func add(_ process: GatewayProcess) { processes.withLock { $0.append(process) } }
        func stopAll() { for process in processes.withLock({ $0 }) { process.stop() } }
    }

    @Test func everyApprovalToldIsChargedOnceWhenAnInstanceIsKilledMidRun() async throws {
        let postgres = try LocalPostgres.start(durable: false)
        defer { postgres.stop() }
        let database = try postgres.createDatabase("bank")

        let migrated = try EMVDecodeBinaryTests.run(["gateway", "migrate", "--database", database])
        #expect(migrated.status == 0 && migrated.out.contains("applied "), "\(migrated.out) \(migrated.err)")

        let fleet = Fleet()
        defer { fleet.stopAll() }
        let first = try GatewayProcess(database: database)
        fleet.add(first)
        let second = try GatewayProcess(database: database)
        fleet.add(second)

        // The first instance bootstrapped the sandbox merchant and printed it once; the second none.
        let apiKey = try #require(first.credential("api key"), "\(first.printed)")
        let user = try #require(first.credential("user"))
        let password = try #require(first.credential("password"))
        #expect(!second.printed.contains { $0.hasPrefix("created sandbox merchant") }, "\(second.printed)")
        #expect(second.credential("api key") == nil && second.credential("password") == nil)
        #expect(second.printed.contains { $0.hasPrefix("gateway instance gw_") }, "\(second.printed)")

        let again = try EMVDecodeBinaryTests.run(["gateway", "migrate", "--database", database])
        #expect(again.status == 0 && again.out.trimmingCharacters(in: .whitespacesAndNewlines) == "up to date", "\(again.out)")

        let instances = BankInstances(ports: [first.port, second.port])
        for index in 0..<2 {
            let health = try await instances.get(GatewayPaths.health, on: index)
            #expect(health.0 == 200 && health.1.contains("\"database\":\"reachable\""), "\(index): \(health)")
        }

        // The CLI's sales through the reader emulator, one on each instance.
        let emulator = try ReaderCommandTests.Emulator.start()
        defer { _ = emulator.stop() }
        let journals = FileManager.default.temporaryDirectory.appendingPathComponent("mpos-bank-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: journals, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: journals) }
        var cliSales: [String] = []
        for (index, port) in [first.port, second.port].enumerated() {
            let sale = try EMVDecodeBinaryTests.run([
                "sale", "--amount", index == 0 ? "1.23" : "1.32", "--json", "--gateway", "http://127.0.0.1:\(port)",
                "--user", user, "--password", password, "--reader", "127.0.0.1:\(emulator.port)",
                "--journal", journals.appendingPathComponent("journal-\(index).sqlite").path,
            ])
            #expect(sale.status == 0, "\(sale.out) \(sale.err)")
            let json = try PaymentCommandTests.object(sale.out)
            #expect(json["status"] as? String == "approved")
            cliSales.append(try #require(json["transactionID"] as? String))
        }

        // A client token minted on one instance is accepted by the other.
        let token = try await instances.clientToken(apiKey: apiKey, on: 0)
        let bearer = [GatewayHeaders.authorization: GatewayHeaders.bearerPrefix + token]
        let lookup = try await instances.get(
            GatewayPaths.transaction.replacingOccurrences(of: "{id}", with: cliSales[0]), headers: bearer, on: 1)
        #expect(lookup.0 == 200 && lookup.1.contains(cliSales[0]), "\(lookup)")

        let seed = SplitMix64.testSeed(environment: ProcessInfo.processInfo.environment)
        let requests = try BankSales.requests(clients: Self.clients, perClient: Self.salesPerClient)
        let progress = Progress()
        let third = BankGate()
        let restarted = BankGate()
        let total = Self.clients * Self.salesPerClient
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in 0..<Self.clients {
                group.addTask {
                    do {
                        var random = SplitMix64(seed: seed &+ UInt64(client))
                        for (operation, request) in requests[client].enumerated() {
                            if operation == Self.waitsForRestartFrom { await restarted.wait() }
                            try await Self.operate(
                                request, token: token, instances: instances, random: &random, told: progress)
                            if progress.finished.add(1, ordering: .relaxed).newValue == total / 3 { third.open() }
                        }
                    } catch {
                        // Nothing may wait for a milestone that will not come.
                        third.open()
                        restarted.open()
                        throw error
                    }
                }
            }
            // A third of the way in, the first instance dies and comes back on its port.
            group.addTask {
                defer { restarted.open() }
                await third.wait()
                progress.finishedAtKill.store(progress.finished.load(ordering: .relaxed), ordering: .relaxed)
                first.kill()
                let back = try (try? GatewayProcess(database: database, port: first.port))
                    ?? GatewayProcess(database: database)
                fleet.add(back)
                #expect(back.credential("api key") == nil, "\(back.printed)")
                instances.restarted(0, port: back.port)
            }
            try await group.waitForAll()
        }
        let answer = progress.told.withLock { $0 }
        print("bank test: seed \(seed) (MPOS_TEST_SEED replays it), killed after \(progress.finishedAtKill.load(ordering: .relaxed)), "
            + "failovers \(instances.failovers.load(ordering: .relaxed)), in progress \(instances.inProgressRetries.load(ordering: .relaxed)), "
            + "answered by the restarted instance \(instances.answersByRestarted.load(ordering: .relaxed)), "
            + "approved \(answer.approvedSales.count), voided \(answer.voidedSales.count), refunds \(answer.refunds.count)")
        #expect(answer.approvedSales.count + answer.declinedSales.count == total)
        #expect(answer.approvedSales.count > total / 2, "too few approvals: \(answer.approvedSales.count)")
        #expect(!answer.voidedSales.isEmpty && !answer.refunds.isEmpty)
        // The kill came mid-run: operations were left, the restarted instance answered some, and
        // clients did send requests again to the other instance.
        let killedAt = progress.finishedAtKill.load(ordering: .relaxed)
        #expect(killedAt >= total / 3 && killedAt < total, "killed after \(killedAt) of \(total)")
        #expect(instances.answersByRestarted.load(ordering: .relaxed) > 0)
        #expect(instances.failovers.load(ordering: .relaxed) > 0)
        for index in 0..<2 {
            let health = try await instances.get(GatewayPaths.health, on: index)
            #expect(health.0 == 200 && health.1.contains("\"database\":\"reachable\""), "\(index): \(health)")
            let cli = try await instances.get(
                GatewayPaths.transaction.replacingOccurrences(of: "{id}", with: cliSales[1]), headers: bearer, on: index)
            #expect(cli.0 == 200, "\(cli)")
        }
        await instances.shutdown()

        try Self.expectLedger(postgres: postgres, excluding: Set(cliSales), matches: answer, sales: total)
    }

    /// One client operation: a sale, then for some approved sales a void or a half refund.
    static func operate(
        _ request: AuthorizeCardRequest, token: String, instances: BankInstances, random: inout SplitMix64,
        told progress: Progress
    ) async throws {
        let sale = try await instances.send(
            GatewayPaths.authorizeCard, token: token, body: request, first: Int(random.next() % 2)
        ).transaction
        guard sale.status == .approved || sale.status == .partiallyApproved else {
            progress.told.withLock { _ = $0.declinedSales.insert(sale.id.rawValue) }
            return
        }
        progress.told.withLock { $0.approvedSales[sale.id.rawValue] = sale.approvedAmount }
        let path = { (template: String) in template.replacingOccurrences(of: "{id}", with: sale.id.rawValue) }
        switch random.next() % 4 {
        case 0:
            let void = try await instances.send(
                path(GatewayPaths.void), token: token, body: VoidRequest(), first: Int(random.next() % 2)
            ).transaction
            guard void.kind == .saleVoid, void.status == .processed else {
                throw BankInstances.Failure(description: "the void answered \(void.kind) \(void.status)")
            }
            progress.told.withLock { _ = $0.voidedSales.insert(sale.id.rawValue) }
        case 1:
            let refund = try await instances.send(
                path(GatewayPaths.refund), token: token, body: RefundRequest(amount: sale.approvedAmount / 2),
                first: Int(random.next() % 2)
            ).transaction
            guard refund.kind == .refund, refund.status == .approved else {
                throw BankInstances.Failure(description: "the refund answered \(refund.kind) \(refund.status)")
            }
            progress.told.withLock { $0.refunds[refund.id.rawValue] = refund.approvedAmount }
        default:
            break
        }
    }

    /// Reads the ledger with `psql` and compares it with what the clients were told.
    static func expectLedger(postgres: LocalPostgres, excluding cliSales: Set<String>, matches told: Told, sales: Int) throws {
        let rows = try psql(
            postgres,
            "SELECT id, kind, status, amount_requested, amount_approved, coalesce(original_id, '') FROM payment_transaction")
        struct Row {
            let id, kind, status: String
            let requested, approved: Int64
            let original: String
        }
        let ledger = rows.compactMap { fields -> Row? in
            guard fields.count == 6, let requested = Int64(fields[3]), let approved = Int64(fields[4]) else { return nil }
            return Row(id: fields[0], kind: fields[1], status: fields[2], requested: requested, approved: approved, original: fields[5])
        }
        #expect(ledger.count == rows.count, "unreadable rows: \(rows.prefix(3))")
        let saleRows = ledger.filter { $0.kind == "sale" && !cliSales.contains($0.id) }
        // Each sale (its amount is its own) was recorded once, whichever instance took it and
        // however often it was sent.
        #expect(saleRows.count == sales, "\(saleRows.count) sales recorded for \(sales) sent")
        #expect(Set(saleRows.map(\.requested)).count == saleRows.count, "a sale was recorded twice")
        let charged = ["approved", "partiallyApproved", "refunded", "reversed"]
        let approvedInLedger = Dictionary(
            uniqueKeysWithValues: saleRows.filter { charged.contains($0.status) }.map { ($0.id, $0.approved) })
        #expect(approvedInLedger == told.approvedSales, "approvals differ from what clients were told")
        #expect(Set(saleRows.filter { $0.status == "reversed" }.map(\.id)) == told.voidedSales)
        let voids = ledger.filter { $0.kind == "saleVoid" }
        #expect(voids.count == told.voidedSales.count && Set(voids.map(\.original)) == told.voidedSales)
        let refunds = ledger.filter { $0.kind == "refund" }
        #expect(refunds.allSatisfy { $0.status == "approved" })
        #expect(Dictionary(uniqueKeysWithValues: refunds.map { ($0.id, $0.approved) }) == told.refunds)
        let toldNet = told.approvedSales.filter { !told.voidedSales.contains($0.key) }.values.reduce(0, +)
            - told.refunds.values.reduce(0, +)
        let ledgerNet = saleRows.filter { ["approved", "partiallyApproved", "refunded"].contains($0.status) }
            .map(\.approved).reduce(0, +) - refunds.map(\.approved).reduce(0, +)
        #expect(ledgerNet == toldNet, "ledger nets \(ledgerNet), clients were told \(toldNet)")
    }

    /// Runs `sql` on the test's database with `psql` and returns its rows' fields.
    static func psql(_ postgres: LocalPostgres, _ sql: String) throws -> [[String]] {
        let bin = try #require(LocalPostgres.binDirectory)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "\(bin)/psql")
        process.arguments = [
            "-h", "127.0.0.1", "-p", "\(postgres.port)", "-U", postgres.user, "-d", "bank", "-At", "-F", "|",
            "-v", "ON_ERROR_STOP=1", "-c", sql,
        ]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "psql failed")
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map {
            $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        }
    }
}
