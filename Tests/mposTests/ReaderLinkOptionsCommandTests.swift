import Foundation
import Testing

/// `mpos reader emulate --link-kbps --mtu --link-delay-ms`: the emulator behind a slow link.
@Suite(.timeLimit(.minutes(2))) struct ReaderLinkOptionsCommandTests {
    @Test func anEmulatorBehindASlowLinkStillServesATerminal() throws {
        let emulator = try ReaderCommandTests.Emulator.start(["--link-kbps", "512", "--mtu", "180", "--link-delay-ms", "5"])
        defer { _ = emulator.stop() }
        let info = try PaymentCommandTests.run(["reader", "info", "--reader", "127.0.0.1:\(emulator.port)", "--json"])
        #expect(info.status == 0, "stderr: \(info.err)")
        #expect(try PaymentCommandTests.object(info.out)["serial"] as? String == "MPSIM-000001")
    }

    @Test(arguments: [
        (["--link-kbps", "0"], "--link-kbps must be 1 to 1000000, not 0"),
        (["--mtu", "19"], "--mtu must be 20 to 65535, not 19"),
        (["--link-delay-ms", "10001"], "--link-delay-ms must be 0 to 10000, not 10001"),
        (["--link-delay-ms", "-1"], "invalid --link-delay-ms '-1'"),
    ])
    func badLinkOptionsExitOneWithOneLine(options: [String], message: String) throws {
        let run = try PaymentCommandTests.run(["reader", "emulate", "--port", "0", "--discovery-port", "0"] + options)
        #expect(run.status == 1)
        #expect(run.err.contains(message), "\(run.err)")
        #expect(run.err.split(separator: "\n").count == 1, "\(run.err)")
    }
}
