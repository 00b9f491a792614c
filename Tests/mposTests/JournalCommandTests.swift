import Foundation
import MPOSTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--journal` as an operator meets it: real `mpos` processes killed mid-sale against a
/// served gateway and reader emulator, a journal another command holds, and paths that are
/// no journal.
@Suite(.serialized, .timeLimit(.minutes(3))) struct JournalCommandTests {
    /// A started `mpos` process whose standard output is read line by line.
    final class Running {
        let process = Process()
        let out = Pipe()
        let err = Pipe()

        init(_ arguments: [String], environment: [String: String]? = nil) throws {
            process.executableURL = try EMVDecodeBinaryTests.mposBinary()
            process.arguments = arguments
            if let environment { process.environment = environment }
            process.standardOutput = out
            process.standardError = err
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }

        /// The next line of standard output; nil at its end.
        func line() -> String? { PaymentCommandTests.ServedGateway.readLine(out.fileHandleForReading) }

        /// Waits for the exit; what is left of standard output, and all of standard error.
        func finish() -> (status: Int32, out: String, err: String) {
            let rest = out.fileHandleForReading.readDataToEndOfFile()
            let errors = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: rest, as: UTF8.self), String(decoding: errors, as: UTF8.self))
        }
    }

    /// The transaction id on a text summary line `APPROVED  sale  1.50 EUR  txn_…`.
    static func approvedID(_ line: String) -> String? {
        guard line.hasPrefix("APPROVED  sale") else { return nil }
        return line.split(separator: " ").first { $0.hasPrefix("txn_") }.map(String.init)
    }

    /// Transaction ids that stderr lines said stand approved (`… ended approved (transaction T) …`).
    static func toldOnStandardError(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            guard line.contains(" ended approved (transaction ") else { return nil }
            return line.split(separator: " ").first { $0.hasPrefix("txn_") }.map {
                String($0.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
            }
        }
    }

    @Test func killedSalesAreFinishedByTheNextRunAndNoApprovalStandsUntold() throws {
        let seed = SplitMix64.testSeed(environment: ProcessInfo.processInfo.environment)
        var generator = SplitMix64(seed: seed)
        let gateway = try PaymentCommandTests.ServedGateway()
        let emulator = try ReaderCommandTests.Emulator.start()
        defer {
            _ = emulator.stop()
            _ = gateway.stop()
        }
        let journal = gateway.directory.appendingPathComponent("killed.sqlite").path
        let remote = Array(gateway.arguments.dropLast(2)) + ["--journal", journal, "--reader", "127.0.0.1:\(emulator.port)"]
        // Amounts that differ per run (a duplicate check never applies) and hit no scenario.
        func sale(_ run: Int) -> [String] { ["sale", "--amount", "\(run + 1).50"] + remote }

        // One whole sale: the lines it prints up to its result are where kills may land.
        let whole = try Running(sale(0))
        var phases: [String] = []
        while let line = whole.line() {
            phases.append(line)
            if Self.approvedID(line) != nil { break }
        }
        let first = whole.finish()
        #expect(first.status == 0, "stderr: \(first.err)")
        var told = Set(phases.compactMap(Self.approvedID))
        #expect(told.count == 1 && phases.contains("· authorizing with the gateway"), "\(phases)")

        // 50 runs, each killed after a seeded number of its output lines (0: at once), so the
        // kills spread from start-up through the authorization to the printed result.
        var killedAt: [Int] = []
        var saidOnStandardError = first.err
        for run in 1...50 {
            let lines = Int.random(in: 0...phases.count, using: &generator)
            let running = try Running(sale(run))
            var read = 0
            while read < lines, let line = running.line() {
                read += 1
                if let id = Self.approvedID(line) { told.insert(id) }
            }
            kill(running.process.processIdentifier, SIGKILL)
            let end = running.finish()
            // What reached the pipe before the kill was shown to the operator too.
            told.formUnion(end.out.split(separator: "\n").compactMap { Self.approvedID(String($0)) })
            saidOnStandardError += end.err
            killedAt.append(lines)
        }

        // The next run finishes what the killed ones left open before its own sale.
        let last = try EMVDecodeBinaryTests.run(sale(51) + ["--json"])
        #expect(last.status == 0, "seed \(seed): \(last.err)")
        let lastID = try #require(try PaymentCommandTests.object(last.out)["transactionID"] as? String)
        told.insert(lastID)
        saidOnStandardError += last.err
        told.formUnion(Self.toldOnStandardError(saidOnStandardError))
        for line in last.err.split(separator: "\n") {
            #expect(line.hasPrefix("journal: an earlier sale of "), "seed \(seed): \(line)")
        }

        let list = try EMVDecodeBinaryTests.run(["transactions", "--page-size", "100", "--json"] + gateway.arguments)
        #expect(list.status == 0, "stderr: \(list.err)")
        let items = try #require(try PaymentCommandTests.object(list.out)["items"] as? [[String: Any]])
        let standing = items.filter { $0["kind"] as? String == "sale" && $0["status"] as? String == "approved" }
        let standingIDs = Set(standing.compactMap { $0["id"] as? String })
        // Every approval that stands was told to the operator, and every one told stands.
        let mismatch =
            "seed \(seed) (MPOS_TEST_SEED replays it); kills after \(killedAt) lines; untold: "
            + "\(standingIDs.subtracting(told)), told but reversed: \(told.subtracting(standingIDs))"
        #expect(standingIDs == told, "\(mismatch)")
        // Nothing is charged twice: each run's amount stands at most once.
        let amounts = standing.compactMap { $0["requestedAmount"] as? Int }
        #expect(Set(amounts).count == amounts.count && amounts.count == standing.count, "seed \(seed): \(amounts)")
        // And nothing is left open: a run after the last finds nothing to report.
        let after = try EMVDecodeBinaryTests.run(["transactions", "--json"] + Array(gateway.arguments.dropLast(2)) + ["--journal", journal])
        #expect(after.status == 0 && after.err.isEmpty, "seed \(seed): \(after.err)")
    }

    @Test func aJournalPointedAtAnotherGatewayExitsOneWithOneLine() throws {
        let home = try PaymentCommandTests.ServedGateway()
        let other = try PaymentCommandTests.ServedGateway()
        defer {
            _ = home.stop()
            _ = other.stop()
        }
        let journal = home.directory.appendingPathComponent("journal.sqlite").path
        let first = try EMVDecodeBinaryTests.run(["transactions", "--json"] + home.arguments)
        #expect(first.status == 0, "stderr: \(first.err)")

        // A payment is refused: the journal's attempts belong to the home gateway.
        let refused = try EMVDecodeBinaryTests.run(
            ["cash", "--amount", "1.00"] + Array(other.arguments.dropLast(2)) + ["--journal", journal])
        #expect(refused.status == 1 && refused.out.isEmpty)
        #expect(refused.err.filter { $0 == "\n" }.count == 1, "\(refused.err)")
        #expect(refused.err.hasPrefix("Error: The payment journal \(journal) belongs to merchant "), "\(refused.err)")
        #expect(refused.err.contains("(last reached at \(home.url)), not merchant "), "\(refused.err)")
        #expect(refused.err.hasSuffix("Give --journal PATH with another file to pay at \(other.url).\n"), "\(refused.err)")

        // A command that takes no payment is not refused: it runs without that journal and says so.
        let listed = try EMVDecodeBinaryTests.run(
            ["transactions", "--json"] + Array(other.arguments.dropLast(2)) + ["--journal", journal])
        #expect(listed.status == 0, "stderr: \(listed.err)")
        #expect(listed.err.hasPrefix("note: the journal \(journal) belongs to merchant "), "\(listed.err)")
        #expect(listed.err.hasSuffix("this command takes no payment and runs without it\n"), "\(listed.err)")

        // Another journal works at once.
        let fresh = try EMVDecodeBinaryTests.run(["transactions", "--json"] + other.arguments)
        #expect(fresh.status == 0, "stderr: \(fresh.err)")
    }

    @Test func aCommandOnAHeldJournalFailsWithOneLine() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mpos-held-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = directory.appendingPathComponent("journal.sqlite").path
        // Held as a running command holds it: an exclusive flock on PATH.lock naming its pid.
        let holder = open(journal + ".lock", O_RDWR | O_CREAT, 0o644)
        #expect(holder >= 0 && flock(holder, LOCK_EX | LOCK_NB) == 0)
        let text = Array("pid \(getpid())\n".utf8)
        #expect(text.withUnsafeBytes { pwrite(holder, $0.baseAddress, $0.count, 0) } == text.count)

        let held = try EMVDecodeBinaryTests.run(["sale", "--amount", "1.00", "--journal", journal])
        #expect(held.status == 1 && held.out.isEmpty)
        #expect(held.err == "Error: the journal \(journal) is in use by another mpos command (pid \(getpid()))\n")

        close(holder)
        let free = try EMVDecodeBinaryTests.run(["sale", "--amount", "1.00", "--journal", journal, "--json"])
        #expect(free.status == 0, "stderr: \(free.err)")
    }

    @Test func aBadJournalExitsOneWithOneLineBeforeAnythingStarts() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mpos-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = directory.appendingPathComponent("notes.txt")
        try Data("not a journal at all\n".utf8).write(to: text)
        let cases: [(path: String, says: String)] = [
            (directory.path, "is a directory"),
            (text.path, "is not an mpos journal"),
            ("/proc/mpos-nowhere/journal.sqlite", "cannot create the directory"),
            ("", "--journal needs a file path"),
        ]
        for (path, says) in cases {
            for command in [["sale", "--amount", "1.00"], ["refund", "--transaction", "txn_1"]] {
                let run = try EMVDecodeBinaryTests.run(command + ["--journal", path])
                #expect(run.status == 1 && run.out.isEmpty, "\(path): \(run.err)")
                #expect(run.err.hasPrefix("Error: ") && run.err.contains(says), "\(path): \(run.err)")
                #expect(run.err.split(separator: "\n").count == 1, "\(path): \(run.err)")
            }
        }
        #expect(try Data(contentsOf: text) == Data("not a journal at all\n".utf8))
    }

    #if os(Linux)
    @Test func withAGatewayTheJournalIsThePerUserFile() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("mpos-xdg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let gateway = try PaymentCommandTests.ServedGateway()
        defer { _ = gateway.stop() }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = data.path
        let running = try Running(["cash", "--amount", "2.00"] + Array(gateway.arguments.dropLast(2)), environment: environment)
        let run = running.finish()
        #expect(run.status == 0, "stderr: \(run.err)")
        let journals = try FileManager.default.contentsOfDirectory(
            atPath: data.appendingPathComponent("mpos/journals").path)
        #expect(journals.count == 1 && journals[0].hasPrefix("gw_"), "\(journals)")
        let folder = data.appendingPathComponent("mpos/journals/\(journals.first ?? "")")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(files.contains { $0.hasPrefix("m_") && $0.hasSuffix(".sqlite") } && files.contains { $0.hasSuffix(".sqlite.lock") }, "\(files)")
    }
    #endif
}
