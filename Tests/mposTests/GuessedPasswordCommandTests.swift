import Foundation
import TerminalAPI
import Testing

/// The counter keeps selling while someone on the network guesses the merchant user's
/// password until the user is locked: `mpos terminal emulate` renews its lapsing sessions,
/// and a later `mpos sale` logs in, with the device credential their first login was granted.
/// Real processes, a real `mpos gateway serve`, and the guesser's requests sent by curl from
/// other loopback addresses.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct GuessedPasswordCommandTests {
    /// POSTs a login for `user` with `password` from `address`; the HTTP status and the body.
    static func login(
        _ gateway: PaymentCommandTests.ServedGateway, user: String, password: String, from address: String,
        forwardedFor: String? = nil
    ) throws -> (status: Int, body: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        let body = String(decoding: try JSONEncoder().encode(["user": user, "password": password]), as: UTF8.self)
        process.arguments = [
            "--silent", "--interface", address, "--write-out", "\n%{http_code}", "--header",
            "Content-Type: application/json", "--data", body, gateway.url + "/v1/auth/login",
        ] + (forwardedFor.map { ["--header", "X-Forwarded-For: \($0)"] } ?? [])
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    static func pay(_ amount: String, serviceID: String, to emulator: TerminalEmulateCommandTests.Emulator)
        async throws -> Response?
    {
        let sent = try await TerminalEmulateCommandTests.send(
            try TerminalEmulateCommandTests.request(
                "payment__paymentRequest", serviceID: serviceID,
                replacing: [("\"RequestedAmount\": 1.00", "\"RequestedAmount\": \(amount)")]),
            to: emulator)
        return sent.response.flatMap(TerminalEmulateCommandTests.body)
    }

    @Test func theCounterKeepsSellingWhileSomeoneGuessesThePassword() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else {
            Issue.record("curl is needed (.ci/run installs it)")
            return
        }
        // One-second sessions: they lapse between the payments below.
        let gateway = try PaymentCommandTests.ServedGateway(["--session-lifetime", "1"])
        defer { _ = gateway.stop() }
        // One reader for both processes: the card's transaction counter goes on from one to the
        // next (the gateway refuses a counter it has seen).
        let reader = try ReaderCommandTests.Emulator.start()
        defer { _ = reader.stop() }
        let readerArguments = ["--reader", "127.0.0.1:\(reader.port)"]
        let emulator = try TerminalEmulateCommandTests.Emulator.start(gateway.arguments + readerArguments)
        #expect(try await Self.pay("1.00", serviceID: "G1", to: emulator)?.result == .success)

        // Ten wrong passwords, each from another address: the user is locked.
        var answers: [(status: Int, body: String)] = []
        for host in 2...11 {
            answers.append(try Self.login(gateway, user: gateway.user, password: "guess-\(host)", from: "127.0.0.\(host)"))
        }
        #expect(answers.map(\.status) == Array(repeating: 401, count: 10))
        #expect(answers.last?.body.contains("4013") == true)
        let right = try Self.login(gateway, user: gateway.user, password: gateway.password, from: "127.0.0.1")
        #expect(right.status == 401 && right.body.contains("4013"))

        // The session lapses; the emulator renews it with its device credential and sells on.
        try await Task.sleep(for: .milliseconds(1_500))
        let second = try await Self.pay("2.00", serviceID: "G2", to: emulator)
        #expect(second?.result == .success, "\(String(describing: second?.errorCondition))")
        #expect(emulator.stop() == 0)

        // A new process on the same journal logs in with the stored credential, user locked.
        let sale = try PaymentCommandTests.run(["sale", "--amount", "3.00", "--json"] + gateway.arguments + readerArguments)
        #expect(sale.status == 0, "stdout: \(sale.out) stderr: \(sale.err)")
        #expect(try PaymentCommandTests.object(sale.out)["status"] as? String == "approved")
        // The credential file beside the journal is the device's own, readable by no one else.
        let file = gateway.directory.appendingPathComponent("journal.sqlite.device").path
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        #expect(!(try String(contentsOfFile: file, encoding: .utf8)).contains(gateway.password))
    }

    /// Behind nginx every connection comes from one address: `--trusted-proxy` names it, and the
    /// clients it forwards are throttled apart; a client's own X-Forwarded-For is not believed.
    @Test func aTrustedProxysClientsAreThrottledApart() throws {
        let gateway = try PaymentCommandTests.ServedGateway(["--trusted-proxy", "127.0.0.1"])
        defer { _ = gateway.stop() }
        for attempt in 1...20 {
            _ = try Self.login(gateway, user: "user\(attempt)", password: "guess", from: "127.0.0.1", forwardedFor: "198.51.100.7")
        }
        let guesser = try Self.login(gateway, user: "user21", password: "guess", from: "127.0.0.1", forwardedFor: "198.51.100.7")
        #expect(guesser.status == 429)
        let merchant = try Self.login(
            gateway, user: gateway.user, password: gateway.password, from: "127.0.0.1", forwardedFor: "192.0.2.10")
        #expect(merchant.status == 200)
        // Not a trusted proxy: its header is ignored, and its own address is counted.
        for attempt in 1...20 {
            _ = try Self.login(gateway, user: "other\(attempt)", password: "guess", from: "127.0.0.2", forwardedFor: "192.0.2.\(attempt)")
        }
        #expect(try Self.login(gateway, user: "other21", password: "guess", from: "127.0.0.2", forwardedFor: "192.0.2.99").status == 429)
    }

    @Test(arguments: ["nginx", "10.0.0.300", ""])
    func aTrustedProxyThatIsNoAddressIsOneLineAndExitOne(value: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mpos-proxy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("gateway.sqlite").path
        let run = try EMVDecodeBinaryTests.run(
            ["gateway", "serve", "--port", "0", "--db", database, "--trusted-proxy", value])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.err.split(separator: "\n").count == 1, "\(run.err)")
        #expect(run.err.contains("--trusted-proxy"))
        #expect(!FileManager.default.fileExists(atPath: database))
    }
}
