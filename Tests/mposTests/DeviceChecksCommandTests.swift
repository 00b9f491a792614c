import Foundation
import Testing

/// Device checks refusing `mpos sale`, with real processes and the real probe: a gateway whose
/// clock runs ten minutes ahead of the machine's (`mpos gateway serve --clock-offset 600`), and
/// a tracer attached to the sale.
@Suite(.serialized, .timeLimit(.minutes(2))) struct DeviceChecksCommandTests {
    static let strace = "/usr/bin/strace"

    /// `mpos ARGUMENTS` run under strace, which attaches as a debugger does (ptrace).
    static func traced(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: strace)
        process.arguments = ["-f", "-o", "/dev/null", try EMVDecodeBinaryTests.mposBinary().path] + arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: outData, as: UTF8.self),
            String(decoding: errData, as: UTF8.self)
        )
    }

    /// The sandbox embedded (gateway and reader in the process): untraced it approves, traced
    /// the sale is refused before the card is read. CI installs strace (`.ci/run`).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: strace)))
    func aSaleWithATracerAttachedIsDebuggerEnabled() throws {
        let sale = ["sale", "--amount", "6.00"]
        let plain = try EMVDecodeBinaryTests.run(sale)
        #expect(plain.status == 0, "\(plain.err)")
        let traced = try Self.traced(sale)
        #expect(traced.status == 1, "\(traced.out) \(traced.err)")
        #expect(traced.out.isEmpty, "\(traced.out)")
        let lines = traced.err.split(separator: "\n")
        #expect(lines.count == 1, "\(traced.err)")
        #expect(
            lines.first?.contains("DEBUGGER_ENABLED: a debugger is attached to the app") == true,
            "\(traced.err)")
    }

    @Test func aSaleOnADeviceWhoseClockIsOffTheGatewaysIsOneLineAndExitOne() throws {
        let gateway = try PaymentCommandTests.ServedGateway(["--clock-offset", "600"])
        defer {
            gateway.process.terminate()
            gateway.process.waitUntilExit()
            try? FileManager.default.removeItem(at: gateway.directory)
        }
        let journal = gateway.directory.appendingPathComponent("journal.sqlite").path
        let sale = try EMVDecodeBinaryTests.run([
            "sale", "--amount", "5.00", "--gateway", gateway.url, "--user", gateway.user, "--password-file",
            gateway.passwordFile, "--journal", journal,
        ])
        #expect(sale.status == 1, "\(sale.out) \(sale.err)")
        #expect(sale.out.isEmpty, "\(sale.out)")
        let lines = sale.err.split(separator: "\n")
        #expect(lines.count == 1, "\(sale.err)")
        #expect(lines.first?.contains("LOCAL_TIME_TAMPERING: the device's clock is") == true, "\(sale.err)")
        #expect(lines.first?.contains("behind the gateway's") == true, "\(sale.err)")

        // Nothing reached the gateway: its ledger holds no sale.
        let listed = try EMVDecodeBinaryTests.run([
            "transactions", "--json", "--gateway", gateway.url, "--user", gateway.user, "--password-file",
            gateway.passwordFile, "--journal", journal,
        ])
        #expect(listed.status == 0, "\(listed.err)")
        let items = try #require(try PaymentCommandTests.object(listed.out)["items"] as? [[String: Any]])
        #expect(items.isEmpty)
    }
}
