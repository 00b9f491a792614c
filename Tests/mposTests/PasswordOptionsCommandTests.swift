import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--password-file`, `MPOS_PASSWORD`, the prompt and `--password` on the commands that log a
/// merchant user in (`mpos dashboard` and, through the shared terminal options, `mpos
/// transactions` and the payment commands), against a `mpos gateway serve` started for the test.
@Suite(.serialized, .timeLimit(.minutes(3))) struct PasswordOptionsCommandTests {
    typealias Run = (status: Int32, out: String, err: String)

    /// A file holding `text`, with `mode`.
    static func file(_ text: String, mode: mode_t = 0o600, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("password-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        #expect(chmod(path, mode) == 0)
        return path
    }

    static func dashboard(
        _ gateway: PaymentCommandTests.ServedGateway, _ extra: [String], environment: [String: String] = [:]
    ) throws -> Run {
        try EMVDecodeBinaryTests.run(
            ["dashboard", "--gateway", gateway.url, "--user", gateway.user] + extra, environment: environment)
    }

    static func transactions(
        _ gateway: PaymentCommandTests.ServedGateway, _ extra: [String], environment: [String: String] = [:]
    ) throws -> Run {
        try EMVDecodeBinaryTests.run(
            [
                "transactions", "--json", "--gateway", gateway.url, "--user", gateway.user,
                "--journal", gateway.directory.appendingPathComponent("journal.sqlite").path,
            ] + extra, environment: environment)
    }

    static func expectLoggedIn(_ run: Run, dashboard: Bool) {
        #expect(run.status == 0, "\(run.err)")
        if dashboard {
            #expect(run.out.contains("/dashboard/login/link"), "\(run.out)")
        } else {
            #expect(run.out.contains("\"items\""), "\(run.out)")
        }
    }

    @Test func aPasswordFileLogsInWithoutAWarning() throws {
        let gateway = try PaymentCommandTests.ServedGateway()
        defer { _ = gateway.stop() }
        let file = try Self.file(gateway.password + "\n", in: gateway.directory)
        // A wrong MPOS_PASSWORD beside it: the file comes first.
        let dashboard = try Self.dashboard(
            gateway, ["--password-file", file], environment: ["MPOS_PASSWORD": "wrong"])
        Self.expectLoggedIn(dashboard, dashboard: true)
        #expect(dashboard.err.isEmpty, "\(dashboard.err)")
        let transactions = try Self.transactions(gateway, ["--password-file", file])
        Self.expectLoggedIn(transactions, dashboard: false)
        #expect(transactions.err.isEmpty, "\(transactions.err)")
    }

    @Test func theEnvironmentVariableLogsInWithoutAWarning() throws {
        let gateway = try PaymentCommandTests.ServedGateway()
        defer { _ = gateway.stop() }
        let dashboard = try Self.dashboard(gateway, [], environment: ["MPOS_PASSWORD": gateway.password])
        Self.expectLoggedIn(dashboard, dashboard: true)
        #expect(dashboard.err.isEmpty, "\(dashboard.err)")
        let transactions = try Self.transactions(
            gateway, [], environment: ["MPOS_PASSWORD": gateway.password])
        Self.expectLoggedIn(transactions, dashboard: false)
        #expect(transactions.err.isEmpty, "\(transactions.err)")
    }

    @Test func aPasswordOnTheCommandLineStillWorksWithOneWarningLine() throws {
        let gateway = try PaymentCommandTests.ServedGateway()
        defer { _ = gateway.stop() }
        for (run, isDashboard) in [
            (try Self.dashboard(gateway, ["--password", gateway.password]), true),
            (try Self.transactions(gateway, ["--password", gateway.password]), false),
        ] {
            Self.expectLoggedIn(run, dashboard: isDashboard)
            let lines = run.err.split(separator: "\n")
            #expect(lines.count == 1, "\(run.err)")
            #expect(
                lines.first?.hasPrefix("warning: --password on the command line is visible to other users")
                    == true)
            #expect(run.err.contains("--password-file") && run.err.contains("MPOS_PASSWORD"))
            #expect(!run.err.contains(gateway.password))
        }
    }

    /// Each command refuses a file it cannot use before it reaches the network (port 1 on
    /// loopback has nothing listening).
    @Test func aPasswordFileThatCannotBeUsedIsOneLineAndExitOne() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mpos-pw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cases: [(path: String, reason: String)] = [
            (directory.appendingPathComponent("missing").path, "no such file"),
            (
                try Self.file("kept-secret\n", mode: 0o644, in: directory),
                "other users may read it (mode 644)"
            ),
            (
                try Self.file("kept-secret\n", mode: 0o640, in: directory),
                "other users may read it (mode 640)"
            ),
            (try Self.file("", in: directory), "the file is empty"),
            (try Self.file("\nkept-secret\n", in: directory), "the file is empty"),
            (directory.path, "not a regular file"),
        ]
        let commands: [[String]] = [
            ["dashboard", "--gateway", "http://127.0.0.1:1", "--user", "sandbox"],
            [
                "transactions", "--gateway", "http://127.0.0.1:1", "--user", "sandbox",
                "--journal", directory.appendingPathComponent("journal.sqlite").path,
            ],
        ]
        for command in commands {
            for (path, reason) in cases {
                let run = try EMVDecodeBinaryTests.run(command + ["--password-file", path])
                #expect(run.status == 1, "\(command[0]) \(path): \(run.err)")
                #expect(run.err.split(separator: "\n").count == 1, "\(run.err)")
                #expect(run.err.contains("--password-file \(path): \(reason)"), "\(run.err)")
                #expect(!run.err.contains("kept-secret"))
                #expect(run.out.isEmpty)
            }
        }
    }

    @Test func withNoPasswordAndNoTerminalTheCommandSaysHowToGiveOne() throws {
        for command in [
            ["dashboard", "--gateway", "http://127.0.0.1:1", "--user", "sandbox"],
            ["transactions", "--gateway", "http://127.0.0.1:1", "--user", "sandbox"],
        ] {
            let run = try EMVDecodeBinaryTests.run(command, environment: ["MPOS_PASSWORD": ""])
            #expect(run.status == 1, "\(run.err)")
            #expect(run.err.split(separator: "\n").count == 1, "\(run.err)")
            #expect(run.err.contains("--password-file FILE or MPOS_PASSWORD"), "\(run.err)")
        }
    }

    /// A client token, minted with the API key as an app's backend does, taken from a file or
    /// from `MPOS_CLIENT_TOKEN` instead of the command line.
    @Test func aClientTokenFromAFileOrTheEnvironmentTakesAPayment() async throws {
        let gateway = try PaymentCommandTests.ServedGateway()
        defer { _ = gateway.stop() }
        var request = URLRequest(url: try #require(URL(string: gateway.url + "/v1/client-tokens")))
        request.httpMethod = "POST"
        request.setValue(gateway.apiKey, forHTTPHeaderField: "X-API-Key")
        let (data, _) = try await URLSession.shared.data(for: request)
        let token = try #require(
            (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["token"] as? String)
        let file = try Self.file(token + "\n", in: gateway.directory)
        let sale = ["sale", "--json", "--gateway", gateway.url]
        for (index, (extra, environment)) in [
            (["--client-token-file", file], [String: String]()), ([], ["MPOS_CLIENT_TOKEN": token]),
        ].enumerated() {
            let journal = gateway.directory.appendingPathComponent("journal-\(index).sqlite").path
            // Each run embeds a new simulated reader: a card of its own, or the gateway's replay
            // guard sees the same cryptogram counter twice.
            let card = ["visa-credit", "visa-debit"][index]
            let run = try EMVDecodeBinaryTests.run(
                sale + extra + ["--amount", "1.00", "--card", card, "--journal", journal],
                environment: environment)
            #expect(run.status == 0, "\(run.out) \(run.err)")
            #expect(run.err.isEmpty, "\(run.err)")
            #expect(try PaymentCommandTests.object(run.out)["status"] as? String == "approved")
        }
        let open = try EMVDecodeBinaryTests.run(
            sale + [
                "--amount", "1.00", "--client-token-file",
                try Self.file(token, mode: 0o644, in: gateway.directory),
            ])
        #expect(open.status == 1 && open.err.split(separator: "\n").count == 1, "\(open.err)")
        #expect(open.err.contains("--client-token-file") && !open.err.contains(token), "\(open.err)")
    }

    /// On a terminal (a pseudo-terminal here) the password is asked, and what is typed is not
    /// echoed back.
    @Test func onATerminalThePasswordIsAskedWithoutEcho() throws {
        let gateway = try PaymentCommandTests.ServedGateway()
        defer { _ = gateway.stop() }
        let terminal = try PseudoTerminal()
        let process = Process()
        process.executableURL = try EMVDecodeBinaryTests.mposBinary()
        process.arguments = ["dashboard", "--gateway", gateway.url, "--user", gateway.user]
        process.environment = ProcessInfo.processInfo.environment.merging(["MPOS_PASSWORD": ""]) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = terminal.follower
        process.standardError = terminal.follower
        try process.run()
        let prompt = terminal.read(until: "Password for \(gateway.user): ", within: .seconds(20))
        #expect(prompt.hasSuffix("Password for \(gateway.user): "), "\(prompt)")
        terminal.write(gateway.password + "\n")
        let link = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let shown = terminal.read(until: nil, within: .milliseconds(300))
        #expect(process.terminationStatus == 0)
        #expect(link.contains("/dashboard/login/link"), "\(link)")
        #expect(!(prompt + shown).contains(gateway.password), "the password was echoed")
    }
}

extension PasswordOptionsCommandTests {
    /// Interrupted at the prompt, the command leaves the terminal as it found it: echo on.
    @Test func anInterruptAtThePromptLeavesTheTerminalEchoing() throws {
        let terminal = try PseudoTerminal()
        let process = Process()
        process.executableURL = try EMVDecodeBinaryTests.mposBinary()
        process.arguments = ["dashboard", "--gateway", "http://127.0.0.1:1", "--user", "sandbox"]
        process.environment = ProcessInfo.processInfo.environment.merging(["MPOS_PASSWORD": ""]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = terminal.follower
        process.standardError = terminal.follower
        try process.run()
        let prompt = terminal.read(until: "Password for sandbox: ", within: .seconds(20))
        #expect(prompt.hasSuffix("Password for sandbox: "), "\(prompt)")
        var during = termios()
        #expect(tcgetattr(terminal.follower.fileDescriptor, &during) == 0)
        #expect(during.c_lflag & tcflag_t(ECHO) == 0, "echo is off while the prompt waits")
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGINT)
        var after = termios()
        #expect(tcgetattr(terminal.follower.fileDescriptor, &after) == 0)
        #expect(after.c_lflag & tcflag_t(ECHO) != 0, "echo is back on after Ctrl-C")
    }
}

/// A pseudo-terminal: the leader side stays with the test, the follower becomes a child's
/// standard input (and error).
final class PseudoTerminal {
    let leader: Int32
    let follower: FileHandle

    init() throws {
        // posix_openpt and its kin are not in Swift's Glibc module (they need _XOPEN_SOURCE), so
        // they are looked up by name.
        typealias Open = @convention(c) (Int32) -> Int32
        typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
        let process = dlopen(nil, RTLD_NOW)
        func function<F>(_ name: String, _ type: F.Type) throws -> F {
            guard let symbol = dlsym(process, name) else { throw PseudoTerminalUnavailable() }
            return unsafeBitCast(symbol, to: type)
        }
        leader = try function("posix_openpt", Open.self)(O_RDWR | O_NOCTTY)
        guard leader >= 0, try function("grantpt", Open.self)(leader) == 0,
            try function("unlockpt", Open.self)(leader) == 0,
            let name = try function("ptsname", Name.self)(leader)
        else { throw PseudoTerminalUnavailable() }
        let descriptor = open(String(cString: name), O_RDWR | O_NOCTTY)
        guard descriptor >= 0 else { throw PseudoTerminalUnavailable() }
        follower = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    deinit { close(leader) }

    struct PseudoTerminalUnavailable: Error {}

    /// Types `text` at the terminal.
    func write(_ text: String) {
        FileHandle(fileDescriptor: leader, closeOnDealloc: false).write(Data(text.utf8))
    }

    /// What the terminal shows within `limit`, stopping early once it ends with `suffix`.
    func read(until suffix: String?, within limit: Duration) -> String {
        var shown = [UInt8]()
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: leader, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = buffer.withUnsafeMutableBytes { readDescriptor(leader, $0.baseAddress, 256) }
            guard count > 0 else { break }
            shown += buffer.prefix(count)
            if let suffix, String(decoding: shown, as: UTF8.self).hasSuffix(suffix) { break }
        }
        return String(decoding: shown, as: UTF8.self)
    }
}

/// `read(2)`, out of reach of ``PseudoTerminal/read(until:within:)``'s name.
private func readDescriptor(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
