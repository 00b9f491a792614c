import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 32's second sandbox and second day, as separate processes: two sandboxes one after
/// the other and the first restarted on another port, all with the default journal; a sale
/// killed against the first finished by `mpos journal finish`.
@Suite(.serialized, .timeLimit(.minutes(3))) struct TwoSandboxesCommandTests {
    /// `mpos gateway serve` on a database that may already exist.
    final class Served {
        let process = Process()
        let out = Pipe()
        var url = ""
        var instance = ""
        var user: String?
        var password: String?

        init(database: String, options: [String] = []) throws {
            process.executableURL = try EMVDecodeBinaryTests.mposBinary()
            process.arguments = ["gateway", "serve", "--port", "0", "--db", database] + options
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            while url.isEmpty, let line = PaymentCommandTests.ServedGateway.readLine(out.fileHandleForReading) {
                let words = line.split(separator: " ").map(String.init)
                if words.first == "user", words.count == 2 { user = words[1] }
                if words.first == "password", words.count == 2 { password = words[1] }
                if line.hasPrefix("gateway instance ") { instance = words[2] }
                if line.hasPrefix("listening on ") { url = words[2] }
            }
        }

        func stop() {
            process.terminate()
            process.waitUntilExit()
        }
    }

    struct Row: Decodable {
        let path: String
        let gatewayInstanceID: String?
        let gatewayURL: String?
        let merchantID: String?
        let unfinishedAttempts: Int
    }

    @Test func twoSandboxesARestartOnAnotherPortAndAKilledSaleFinishedByJournalFinish() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("mpos-two-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let environment = ["XDG_DATA_HOME": root.appendingPathComponent("data").path]
        func mpos(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
            try EMVDecodeBinaryTests.run(arguments, environment: environment)
        }
        func journals() throws -> [Row] {
            let run = try mpos(["journal", "list", "--json"])
            #expect(run.status == 0, "\(run.err)")
            return try JSONDecoder().decode([Row].self, from: Data(run.out.utf8))
        }

        // The first sandbox: a sale with the default journal.
        let firstDatabase = root.appendingPathComponent("a.sqlite").path
        var first = try Served(database: firstDatabase)
        let (user, password) = (try #require(first.user), try #require(first.password))
        func at(_ gateway: Served, _ user: String, _ password: String) throws -> [String] {
            [
                "--gateway", gateway.url, "--user", user,
                "--password-file", try PasswordOptionsCommandTests.file(password, in: root),
            ]
        }
        var firstLogin = try at(first, user, password)
        let sale = try mpos(["sale", "--amount", "3.10"] + firstLogin)
        #expect(sale.status == 0, "\(sale.err)")

        // A second sandbox: every command works at once, with a journal of its own.
        let second = try Served(database: root.appendingPathComponent("b.sqlite").path)
        defer { second.stop() }
        let secondLogin = try at(second, try #require(second.user), try #require(second.password))
        for command in [["sale", "--amount", "4.20"], ["transactions", "--json"], ["stats", "--json"]] {
            let run = try mpos(command + secondLogin)
            #expect(run.status == 0, "\(command): \(run.err)")
        }
        var rows = try journals()
        #expect(rows.count == 2 && Set(rows.compactMap(\.gatewayInstanceID)) == [first.instance, second.instance])

        // The first sandbox again, restarted on another port: its journal is still its own.
        let oldURL = first.url
        first.stop()
        first = try Served(database: firstDatabase)
        defer { first.stop() }
        #expect(first.url != oldURL && first.user == nil)
        firstLogin = try at(first, user, password)
        let listed = try mpos(["transactions", "--json"] + firstLogin)
        #expect(listed.status == 0 && listed.out.contains("\"approvedAmount\":310"), "\(listed.out)")
        rows = try journals()
        #expect(rows.count == 2)
        let firstJournal = try #require(rows.first { $0.gatewayInstanceID == first.instance })
        #expect(firstJournal.gatewayURL == first.url && firstJournal.unfinishedAttempts == 0)

        // A sale killed while its authorization waits on a stopped gateway: the journal holds it.
        let killed = try JournalCommandTests.Running(
            ["sale", "--amount", "5.30"] + firstLogin, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
        var stopped = false
        while let line = killed.line() {
            if !stopped, line.hasPrefix("· card") {
                kill(first.process.processIdentifier, SIGSTOP)
                stopped = true
            }
            if line == "· authorizing with the gateway" { break }
        }
        kill(killed.process.processIdentifier, SIGKILL)
        _ = killed.finish()
        kill(first.process.processIdentifier, SIGCONT)
        #expect(stopped)
        #expect(try journals().first { $0.path == firstJournal.path }?.unfinishedAttempts == 1)

        // Bad input changes no file: a path that is no journal, and the second gateway's credentials.
        let text = root.appendingPathComponent("notes.txt")
        try Data("not a journal\n".utf8).write(to: text)
        let notJournal = try mpos(["journal", "finish", "--journal", text.path] + firstLogin)
        #expect(notJournal.status == 1 && notJournal.err.split(separator: "\n").count == 1, "\(notJournal.err)")
        #expect(try Data(contentsOf: text) == Data("not a journal\n".utf8))
        let before = try Data(contentsOf: URL(fileURLWithPath: firstJournal.path))
        let wrong = try mpos(["journal", "finish", "--journal", firstJournal.path] + secondLogin)
        #expect(wrong.status == 1 && wrong.err.split(separator: "\n").count == 1, "\(wrong.err)")
        #expect(wrong.err.contains("belongs to merchant") && wrong.err.contains("nothing in it changed"), "\(wrong.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: firstJournal.path)) == before)
        let unknown = try mpos(
            ["journal", "finish", "--journal", firstJournal.path, "--gateway", "http://127.0.0.1:1", "--user", user,
             "--password-file", try PasswordOptionsCommandTests.file(password, in: root)])
        #expect(unknown.status == 1 && unknown.err.split(separator: "\n").count == 1, "\(unknown.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: firstJournal.path)) == before)

        // Finished at its own gateway, found by the journal's last URL.
        let finish = try mpos(
            ["journal", "finish", "--journal", firstJournal.path, "--user", user, "--password", password])
        #expect(finish.status == 0, "\(finish.err)")
        // It logs in twice (who the gateway is, then the session), but warns once.
        let warnings = finish.err.components(separatedBy: "warning: --password on the command line").count - 1
        #expect(warnings == 1, "\(finish.err)")
        #expect(finish.out == "finished 1, unfinished 0\n", "\(finish.out)")
        #expect(finish.err.contains("journal: an earlier sale of 5.30"), "\(finish.err)")
        #expect(try journals().allSatisfy { $0.unfinishedAttempts == 0 })
    }
}
