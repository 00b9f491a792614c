import Foundation
import MPOSTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// R1 with real processes: one online login, then the gateway stops; `mpos sale
/// --offline-allowed` processes start with it down (on the session that login cached), some
/// SIGKILLed at seeded output lines; the gateway comes back on the same database and `mpos
/// offline forward` processes are SIGKILLed at seeded points too; a last forward finishes.
///
/// "Told about" means: the stored id was on a sale's `APPROVEDOFFLINE … stored ID` line on
/// standard output (read before the kill or left in the pipe), or a later run's standard error
/// said the attempt with its key "ended approvedOffline". Each of those is in the ledger once;
/// a killed sale never told may be stored or not, and if stored it is listed and forwarded
/// once; the ledger holds nothing else.
///
/// `MPOS_R1_SALES` (default 40) and `MPOS_R1_KILLS` (default 10, a quarter of them forwards)
/// scale it; the limit leaves room for a run of 1,000 sales.
@Suite(.serialized, .timeLimit(.minutes(45))) struct OfflineR1CommandTests {
    typealias Running = JournalCommandTests.Running

    /// The stored id on `APPROVEDOFFLINE  sale  1.50 EUR  stored ID`.
    static func storedID(_ line: Substring) -> String? {
        guard line.hasPrefix("APPROVEDOFFLINE"), line.contains(" stored "), let last = line.split(separator: " ").last
        else { return nil }
        return last.uppercased()
    }

    /// Keys of attempts a later run said ended approved offline.
    static func toldKeys(_ standardError: String) -> [String] {
        standardError.split(separator: "\n").compactMap { line in
            guard line.contains(" ended approvedOffline"), let range = line.range(of: "(key ") else { return nil }
            return String(line[range.upperBound...].prefix { $0 != ")" })
        }
    }

    @Test func aSaleStartedWithTheGatewayStoppedNeedsTheFlagAndTheCachedSession() throws {
        let served = try PaymentCommandTests.ServedGateway()
        let emulator = try ReaderCommandTests.Emulator.start()
        defer {
            _ = emulator.stop()
            _ = served.stop()
        }
        let reader = ["--reader", "127.0.0.1:\(emulator.port)"]
        let other = served.directory.appendingPathComponent("never-online.sqlite").path
        #expect(try EMVDecodeBinaryTests.run(["transactions"] + served.arguments).status == 0)
        served.process.terminate()
        served.process.waitUntilExit()

        let plain = try EMVDecodeBinaryTests.run(["sale", "--amount", "2.50"] + reader + served.arguments)
        #expect(plain.status == 1 && plain.err.split(separator: "\n").count == 1, "\(plain.err)")
        #expect(plain.err.contains("failed: Login got no answer"), "\(plain.err)")
        let offline = try EMVDecodeBinaryTests.run(
            ["sale", "--amount", "2.50", "--offline-allowed", "--json"] + reader + served.arguments)
        #expect(offline.status == 0, "\(offline.err)")
        let object = try PaymentCommandTests.object(offline.out)
        #expect(object["status"] as? String == "approvedOffline" && object["offlineID"] is String)
        // A journal that never saw an online login has no session to fall back to.
        let fresh = try EMVDecodeBinaryTests.run(
            ["sale", "--amount", "2.50", "--offline-allowed"] + reader + Array(served.arguments.dropLast(2))
                + ["--journal", other])
        #expect(fresh.status == 1 && fresh.err.contains("NO_TOKEN"), "\(fresh.err)")
    }

    @Test func killedSalesAndForwardsChargeExactlyTheStoredSalesOnce() throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = SplitMix64.testSeed(environment: environment)
        var generator = SplitMix64(seed: seed)
        let count = max(2, Int(environment["MPOS_R1_SALES"] ?? "") ?? 40)
        let kills = max(2, Int(environment["MPOS_R1_KILLS"] ?? "") ?? 10)
        let forwardKills = max(1, kills / 4)
        let killedSales = Set((1..<count).shuffled(using: &generator).prefix(kills - forwardKills))

        let served = try PaymentCommandTests.ServedGateway()
        let emulator = try ReaderCommandTests.Emulator.start()
        // The gateway's URL, its credentials and the journal beside its database.
        let remote = served.arguments
        var restarted: Process?
        defer {
            _ = emulator.stop()
            restarted?.terminate()
            restarted?.waitUntilExit()
            _ = served.stop()
        }
        // The one online login, which caches the session.
        #expect(try EMVDecodeBinaryTests.run(["transactions", "--json"] + remote).status == 0)
        served.process.terminate()
        served.process.waitUntilExit()

        func sale(_ run: Int) -> [String] {
            // At most 9.50 EUR: a thousand sales stay within the card's 10,000.00 balance, so the
            // issuer has no reason to decline any of them at the forward.
            ["sale", "--amount", "\(1 + run % 9).50", "--offline-allowed", "--reader", "127.0.0.1:\(emulator.port)"]
                + remote
        }
        var toldIDs = Set<String>()
        var standardError = ""
        // A whole sale first: its output lines are where the kills may land.
        let whole = try Running(sale(0))
        var phases: [String] = []
        while let line = whole.line() { phases.append(line) }
        let wholeEnd = whole.finish()
        #expect(wholeEnd.status == 0, "seed \(seed): \(phases) \(wholeEnd.err)")
        toldIDs.formUnion(phases.compactMap { Self.storedID(Substring($0)) })
        #expect(toldIDs.count == 1, "\(phases)")
        standardError += wholeEnd.err

        var killedAt: [Int] = []
        for run in 1..<count {
            let running = try Running(sale(run))
            if killedSales.contains(run) {
                let lines = Int.random(in: 0...phases.count, using: &generator)
                var read = 0
                while read < lines, let line = running.line() {
                    read += 1
                    if let id = Self.storedID(Substring(line)) { toldIDs.insert(id) }
                }
                kill(running.process.processIdentifier, SIGKILL)
                killedAt.append(lines)
            }
            let end = running.finish()
            if !killedSales.contains(run) { #expect(end.status == 0, "seed \(seed), run \(run): \(end.err)") }
            // What reached the pipe before a kill was shown to the operator too.
            toldIDs.formUnion(end.out.split(separator: "\n").compactMap(Self.storedID))
            standardError += end.err
        }

        // The gateway is back on the same database; forwards are killed after seeded lines.
        let database = served.directory.appendingPathComponent("gateway.sqlite").path
        let port = try #require(URL(string: served.url)?.port)
        restarted = try OfflineCommandTests.serve(database, port: port).0.process
        var forwardKilledAt: [Int] = []
        for _ in 0..<forwardKills {
            let lines = Int.random(in: 0...max(1, count / forwardKills), using: &generator)
            let forward = try Running(["offline", "forward"] + remote)
            var read = 0
            while read < lines, forward.line() != nil { read += 1 }
            kill(forward.process.processIdentifier, SIGKILL)
            standardError += forward.finish().err
            forwardKilledAt.append(lines)
        }
        let last = try EMVDecodeBinaryTests.run(["offline", "forward", "--json"] + remote)
        let context = "seed \(seed) (MPOS_TEST_SEED replays it); sales killed after \(killedAt) lines, forwards after \(forwardKilledAt)"
        #expect(last.status == 0, "\(context): \(last.err)")
        standardError += last.err
        let payments = try #require(try PaymentCommandTests.object(last.out)["payments"] as? [[String: Any]])
        let storedIDs = payments.compactMap { ($0["id"] as? String)?.uppercased() }
        let keyToID = Dictionary(
            payments.compactMap { p in (p["idempotencyKey"] as? String).map { ($0, (p["id"] as? String ?? "").uppercased()) } },
            uniquingKeysWith: { a, _ in a })
        toldIDs.formUnion(Self.toldKeys(standardError).compactMap { keyToID[$0] })

        // Every sale not killed was told; every told sale is stored, and each stored one once.
        #expect(toldIDs.count >= count - killedSales.count, "\(context)")
        #expect(toldIDs.isSubset(of: Set(storedIDs)), "\(context): told but not stored \(toldIDs.subtracting(storedIDs))")
        #expect(Set(storedIDs).count == storedIDs.count, "\(context)")
        let forwarded = payments.compactMap { $0["forwarded"] as? [String: Any] }
        #expect(forwarded.count == payments.count, "\(context): some stored sales were not forwarded")
        let forwardedIDs = forwarded.compactMap { $0["transactionID"] as? String }
        // Each stored sale has its one transaction, and the issuer approved it: the card's TC is
        // good and the sales fit its balance, so a decline would mean a forward out of order
        // (the counter check) or a record sent twice.
        #expect(forwardedIDs.count == payments.count, "\(context)")
        let declined = forwarded.filter { $0["approved"] as? Bool != true }.map { $0["responseCode"] as? String ?? "?" }
        #expect(declined.isEmpty, "\(context): declined at the forward with \(declined)")

        // The ledger: exactly the forwarded transactions, each once, and nothing else.
        var ledger: [String] = []
        for page in 1... {
            let list = try EMVDecodeBinaryTests.run(
                ["transactions", "--page", "\(page)", "--page-size", "100", "--json"] + remote)
            #expect(list.status == 0, "\(context): \(list.err)")
            let items = try #require(try PaymentCommandTests.object(list.out)["items"] as? [[String: Any]])
            ledger += items.filter { $0["kind"] as? String == "sale" }.compactMap { $0["id"] as? String }
            if items.count < 100 { break }
        }
        #expect(ledger.count == Set(ledger).count, "\(context): a transaction listed twice")
        #expect(Set(ledger) == Set(forwardedIDs) && ledger.count == forwardedIDs.count, "\(context)")
    }
}
