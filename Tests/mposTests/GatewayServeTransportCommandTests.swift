import Foundation
import Testing

/// `mpos gateway serve` on an address other hosts can reach: plain HTTP only with
/// `--insecure-http` (and a warning), and connection timeouts that must make sense.
@Suite(.timeLimit(.minutes(2))) struct GatewayServeTransportCommandTests {
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mpos-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test(arguments: ["0.0.0.0", "::", "192.0.2.10"])
    func plainHTTPBeyondLoopbackIsRefusedWithOneLine(host: String) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("gateway.sqlite").path
        let run = try EMVDecodeBinaryTests.run([
            "gateway", "serve", "--host", host, "--port", "0", "--db", database,
        ])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.err.split(separator: "\n").count == 1, "\(run.err)")
        #expect(run.err.contains("plain HTTP on \(host)"))
        #expect(
            run.err.contains("--tls-certificate") && run.err.contains("--tls-key")
                && run.err.contains("--insecure-http"))
        #expect(run.out.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: database), "nothing opened for a refused start")
    }

    @Test func insecureHTTPServesEveryInterfaceWithAWarning() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = Process()
        process.executableURL = try EMVDecodeBinaryTests.mposBinary()
        process.arguments = [
            "gateway", "serve", "--host", "0.0.0.0", "--port", "0", "--insecure-http",
            "--db", directory.appendingPathComponent("gateway.sqlite").path,
        ]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        var listening: String?
        while listening == nil,
            let line = PaymentCommandTests.ServedGateway.readLine(out.fileHandleForReading)
        {
            if line.hasPrefix("listening on ") { listening = line }
        }
        process.terminate()
        process.waitUntilExit()
        let warnings = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(listening?.hasPrefix("listening on http://0.0.0.0:") == true)
        let lines = warnings.split(separator: "\n")
        #expect(lines.count == 1, "\(warnings)")
        #expect(lines.first?.hasPrefix("warning: serving plain HTTP on 0.0.0.0") == true, "\(warnings)")
    }

    @Test(arguments: ["--idle-timeout", "--request-header-timeout", "--request-body-timeout"])
    func aTimeoutOutOfRangeIsRefusedWithOneLine(option: String) throws {
        for value in ["0", "100000"] {
            let run = try EMVDecodeBinaryTests.run(["gateway", "serve", "--port", "0", option, value])
            #expect(run.status == 1, "\(option) \(value): \(run.err)")
            #expect(run.err.split(separator: "\n").count == 1, "\(run.err)")
            #expect(run.err.contains("\(option) must be between 0.1 seconds and a day"), "\(run.err)")
            #expect(run.out.isEmpty)
        }
    }
}
