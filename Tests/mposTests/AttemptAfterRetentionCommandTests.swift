import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A tablet off over a weekend: a sale whose answer was lost on the way back, the gateway
/// restarted three days on (`--clock-offset`), past the 24 hours its answers are cached, and
/// `mpos journal finish` still learns that the card was charged, and reverses the charge the
/// card never completed.
@Suite(.serialized, .timeLimit(.minutes(3))) struct AttemptAfterRetentionCommandTests {
    struct Row: Decodable {
        let path: String
        let unfinishedAttempts: Int
    }

    @Test func aSaleWhoseAnswerWasLostIsFoundThreeDaysOnByJournalFinish() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("mpos-weekend-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let environment = ["XDG_DATA_HOME": root.appendingPathComponent("data").path]
        func mpos(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
            try EMVDecodeBinaryTests.run(arguments, environment: environment)
        }
        let database = root.appendingPathComponent("gateway.sqlite").path
        let journal = root.appendingPathComponent("journal.sqlite").path
        var gateway = try TwoSandboxesCommandTests.Served(database: database)
        let (user, password) = (try #require(gateway.user), try #require(gateway.password))
        let login = ["--user", user, "--password-file", try PasswordOptionsCommandTests.file(password, in: root)]
        let emulator = try ReaderCommandTests.Emulator.start()
        defer {
            _ = emulator.stop()
            gateway.stop()
        }

        // The sale goes through a relay that drops the gateway's answer to the card payment:
        // charged at the gateway, never heard of by the terminal, which is then switched off.
        let gatewayPort = try #require(URL(string: gateway.url)?.port)
        let relay = try AnswerDroppingProxy(to: gatewayPort, dropping: "POST /v1/payments/card")
        defer { relay.close() }
        let sale = try JournalCommandTests.Running(
            ["sale", "--amount", "4.20", "--gateway", "http://127.0.0.1:\(relay.port)", "--journal", journal,
             "--reader", "127.0.0.1:\(emulator.port)"] + login,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
        let dropped = relay.waitForDroppedAnswer(seconds: 60)
        kill(sale.process.processIdentifier, SIGKILL)
        let killed = sale.finish()
        try #require(dropped, "the sale's answer never came: \(killed.err)")
        let listed = try mpos(["journal", "list", "--json", journal])
        #expect(try JSONDecoder().decode([Row].self, from: Data(listed.out.utf8)).first?.unfinishedAttempts == 1)

        // Three days on: the gateway's cache of answers has expired.
        gateway.stop()
        gateway = try TwoSandboxesCommandTests.Served(database: database, options: ["--clock-offset", "\(3 * 24 * 60 * 60)"])
        let finish = try mpos(["journal", "finish", "--journal", journal, "--gateway", gateway.url] + login)
        #expect(finish.status == 0, "\(finish.err)")
        #expect(finish.out == "finished 1, unfinished 0\n", "\(finish.out)")
        #expect(
            finish.err.contains("was approved at the gateway (transaction txn_")
                && finish.err.contains("but never completed on the card; reversed it"), "\(finish.err)")

        // At the gateway, the sale stands reversed: the customer is not left charged.
        let transactions = try mpos(["transactions", "--json", "--gateway", gateway.url] + login)
        #expect(transactions.status == 0, "\(transactions.err)")
        let items = try #require(try PaymentCommandTests.object(transactions.out)["items"] as? [[String: Any]])
        let sales = items.filter { $0["kind"] as? String == "sale" }
        #expect(sales.count == 1 && sales.first?["status"] as? String == "reversed", "\(sales)")
    }
}
