import Foundation
import MPOSTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Store and forward as an operator meets it, with real processes: the gateway process dies
/// while the card is being read, `mpos sale --offline-allowed` exits 0 with approvedOffline,
/// and once the gateway is back on the same database `mpos offline forward` charges the sale
/// exactly once.
@Suite(.serialized, .timeLimit(.minutes(3))) struct OfflineCommandTests {
    typealias Running = JournalCommandTests.Running

    /// `mpos gateway serve` on `database` and `port`; its URL once it listens.
    static func serve(_ database: String, port: Int) throws -> (Running, String) {
        let gateway = try Running(["gateway", "serve", "--port", "\(port)", "--db", database])
        while let line = gateway.line() {
            if line.hasPrefix("listening on ") {
                return (gateway, String(line.dropFirst("listening on ".count)))
            }
        }
        throw BinaryNotFound()
    }

    @Test func aSaleTakenWhileTheGatewayIsDownIsForwardedOnceWhenItIsBack() throws {
        let first = try PaymentCommandTests.ServedGateway()
        let emulator = try ReaderCommandTests.Emulator.start(["--delay-ms", "700"])
        defer { _ = emulator.stop() }
        let database = first.directory.appendingPathComponent("gateway.sqlite").path
        let journal = first.directory.appendingPathComponent("journal.sqlite").path
        let login = ["--user", first.user, "--password-file", first.passwordFile, "--journal", journal]

        let sale = try Running(
            [
                "sale", "--amount", "12.50", "--offline-allowed", "--gateway", first.url, "--reader",
                "127.0.0.1:\(emulator.port)",
            ] + login)
        // The gateway dies while the cardholder is still at the reader.
        var shown: [String] = []
        while let line = sale.line() {
            shown.append(line)
            if line.contains("card") { break }
        }
        first.process.terminate()
        first.process.waitUntilExit()
        let result = sale.finish()
        #expect(result.status == 0, "shown: \(shown) stderr: \(result.err)")
        #expect(
            result.out.contains("APPROVEDOFFLINE  sale  12.50 EUR") && result.out.contains("stored "),
            "\(result.out)")

        let listed = try EMVDecodeBinaryTests.run(["offline", "list", "--journal", journal, "--json"])
        #expect(listed.status == 0, "\(listed.err)")
        let waiting = try #require(try PaymentCommandTests.object(listed.out)["payments"] as? [[String: Any]])
        #expect(
            waiting.count == 1 && waiting.first?["forwarded"] == nil
                && waiting.first?["amount"] as? Int == 12_50)

        // Back at the same address: the journal is bound to the gateway it was used with.
        let port = try #require(URL(string: first.url)?.port)
        let (second, url) = try Self.serve(database, port: port)
        defer {
            second.process.terminate()
            second.process.waitUntilExit()
            try? FileManager.default.removeItem(at: first.directory)
        }
        let remote = ["--gateway", url] + login
        let forward = try EMVDecodeBinaryTests.run(["offline", "forward", "--json"] + remote)
        #expect(forward.status == 0, "\(forward.err)")
        let payments = try #require(
            try PaymentCommandTests.object(forward.out)["payments"] as? [[String: Any]])
        let outcome = try #require(payments.first?["forwarded"] as? [String: Any])
        #expect(outcome["approved"] as? Bool == true)
        let id = try #require(outcome["transactionID"] as? String)

        // Forwarding again changes nothing; the ledger holds the sale once.
        #expect(try EMVDecodeBinaryTests.run(["offline", "forward"] + remote).status == 0)
        let list = try EMVDecodeBinaryTests.run(["transactions", "--json"] + remote)
        let items = try #require(try PaymentCommandTests.object(list.out)["items"] as? [[String: Any]])
        let sales = items.filter { $0["kind"] as? String == "sale" }
        #expect(sales.compactMap { $0["id"] as? String } == [id])
        #expect(sales.first?["status"] as? String == "approved")
    }

    /// Scaled-down R1: three sales stored while the gateway dies mid-sale, then forwards
    /// SIGKILLed at seeded moments, then a last forward: the ledger holds each stored sale
    /// exactly once and nothing else.
    @Test func killedForwardsNeitherLoseNorDoubleAStoredSale() throws {
        let seed = SplitMix64.testSeed(environment: ProcessInfo.processInfo.environment)
        var generator = SplitMix64(seed: seed)
        let first = try PaymentCommandTests.ServedGateway()
        let emulator = try ReaderCommandTests.Emulator.start(["--delay-ms", "500"])
        let database = first.directory.appendingPathComponent("gateway.sqlite").path
        let journal = first.directory.appendingPathComponent("journal.sqlite").path
        let port = try #require(URL(string: first.url)?.port)
        let remote = [
            "--gateway", first.url, "--user", first.user, "--password-file", first.passwordFile,
            "--journal", journal,
        ]
        var gateway: Process = first.process
        defer {
            _ = emulator.stop()
            gateway.terminate()
            gateway.waitUntilExit()
            try? FileManager.default.removeItem(at: first.directory)
        }
        var stored: [String] = []
        for (index, amount) in ["13.50", "14.50", "15.50"].enumerated() {
            if index > 0 { gateway = try Self.serve(database, port: port).0.process }
            let sale = try Running(
                ["sale", "--amount", amount, "--offline-allowed", "--reader", "127.0.0.1:\(emulator.port)"]
                    + remote)
            while let line = sale.line(), !line.contains("card") {}
            gateway.terminate()
            gateway.waitUntilExit()
            let result = sale.finish()
            #expect(result.status == 0, "seed \(seed): \(result.err)")
            if let line = result.out.split(separator: "\n").first(where: { $0.hasPrefix("APPROVEDOFFLINE") })
            {
                stored.append(String(line.split(separator: " ").last ?? ""))
            }
        }
        #expect(stored.count == 3)
        gateway = try Self.serve(database, port: port).0.process
        // Each forward is killed after a seeded number of its "forwarded" lines (0: at once).
        var killedAfter: [Int] = []
        for _ in 0..<3 {
            let lines = Int.random(in: 0...2, using: &generator)
            let forward = try Running(["offline", "forward"] + remote)
            var read = 0
            while read < lines, forward.line() != nil { read += 1 }
            kill(forward.process.processIdentifier, SIGKILL)
            _ = forward.finish()
            killedAfter.append(lines)
        }
        let last = try EMVDecodeBinaryTests.run(["offline", "forward", "--json"] + remote)
        #expect(last.status == 0, "seed \(seed): \(last.err)")
        let payments = try #require(try PaymentCommandTests.object(last.out)["payments"] as? [[String: Any]])
        #expect(
            Set(payments.compactMap { ($0["id"] as? String)?.uppercased() }) == Set(stored), "seed \(seed)")
        let forwarded = payments.compactMap { $0["forwarded"] as? [String: Any] }
        #expect(forwarded.count == 3 && forwarded.allSatisfy { $0["approved"] as? Bool == true })
        let list = try EMVDecodeBinaryTests.run(["transactions", "--json"] + remote)
        let items = try #require(try PaymentCommandTests.object(list.out)["items"] as? [[String: Any]])
        let sales = items.filter { $0["kind"] as? String == "sale" }
        #expect(
            Set(sales.compactMap { $0["id"] as? String })
                == Set(forwarded.compactMap { $0["transactionID"] as? String }))
        #expect(sales.count == 3, "seed \(seed), forwards killed after \(killedAfter) lines")
    }

    @Test func listingNeedsAJournal() throws {
        let run = try EMVDecodeBinaryTests.run(["offline", "list"])
        #expect(run.status == 1 && run.err.contains("--journal"))
    }
}
