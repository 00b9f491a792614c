import Foundation
import Testing

/// `mpos gateway merchant add` as a user runs it: the real binary adds a second merchant to
/// the database of a running `mpos gateway serve`, which serves it apart from the first.
@Suite(.serialized, .timeLimit(.minutes(2))) struct GatewayMerchantCommandTests {
    /// The value after `label` in the credentials block `mpos gateway merchant add` printed.
    static func field(_ label: String, in output: String) -> String? {
        for line in output.split(separator: "\n") {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            if words.count == 2, words[0] == label { return String(words[1]) }
            if words.count == 3, "\(words[0]) \(words[1])" == label { return String(words[2]) }
        }
        return nil
    }

    @Test func anAddedMerchantLogsInAndSeesNoneOfTheFirstMerchantsSales() throws {
        let gateway = try PaymentCommandTests.ServedGateway()
        defer { _ = gateway.stop() }
        let database = gateway.directory.appendingPathComponent("gateway.sqlite").path
        let added = try PaymentCommandTests.run(
            ["gateway", "merchant", "add", "--db", database, "--name", "Team B"])
        #expect(added.status == 0, "stderr: \(added.err)")
        #expect(
            added.out.hasPrefix(
                "created sandbox merchant in \(database) (shown once; only hashes are stored):"))
        let user = try #require(Self.field("user", in: added.out), "\(added.out)")
        let password = try #require(Self.field("password", in: added.out), "\(added.out)")
        #expect(Self.field("api key", in: added.out)?.hasPrefix("sk_sandbox_") == true)
        #expect(Self.field("merchant", in: added.out)?.hasPrefix("m_") == true)
        #expect(user != gateway.user)

        let sale = try PaymentCommandTests.run(["cash", "--amount", "8.00", "--json"] + gateway.arguments)
        #expect(sale.status == 0, "stderr: \(sale.err)")
        let first = try PaymentCommandTests.run(["transactions", "--json"] + gateway.arguments)
        #expect(try PaymentCommandTests.object(first.out)["totalCount"] as? Int == 1)

        let journal = gateway.directory.appendingPathComponent("journal-b.sqlite").path
        let arguments = [
            "transactions", "--json", "--gateway", gateway.url, "--user", user, "--password", password,
            "--journal", journal,
        ]
        let second = try PaymentCommandTests.run(arguments)
        #expect(second.status == 0, "stderr: \(second.err)")
        let page = try PaymentCommandTests.object(second.out)
        #expect(page["totalCount"] as? Int == 0 && (page["items"] as? [Any])?.isEmpty == true)
    }

    @Test func anEmptyNameExitsOneWithAClearMessage() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mpos-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try PaymentCommandTests.run(
            [
                "gateway", "merchant", "add", "--db", directory.appendingPathComponent("g.sqlite").path,
                "--name", "",
            ])
        #expect(run.status == 1 && run.err.contains("--name must be 1 to 100 characters."))
    }

    @Test func aFileThatIsNotADatabaseExitsOneNamingIt() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mpos-cli-\(UUID().uuidString).sqlite")
        try Data("not a database\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try PaymentCommandTests.run(["gateway", "merchant", "add", "--db", file.path])
        #expect(run.status == 1 && run.out.isEmpty)
        #expect(
            run.err.contains(
                "--db \(file.path): cannot open the sandbox database: SQLite error 26: file is not a database"
            ))
    }
}
