import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One `mpos gateway serve --database URL` process: started, read until it listens, then
/// killed or stopped by the test. Its standard output keeps being read after the port, so the
/// gateway never blocks on a full pipe.
final class GatewayProcess: @unchecked Sendable {
    /// Why an instance did not come up.
    struct StartFailure: Error, CustomStringConvertible { let description: String }

    private let process = Process()
    /// The port it listens on.
    let port: Int
    /// Every line it printed up to and including `listening on …`.
    let printed: [String]

    /// Starts an instance on `database`; on `port` (0 picks a free one).
    init(database: String, port: Int = 0) throws {
        process.executableURL = try EMVDecodeBinaryTests.mposBinary()
        process.arguments = ["gateway", "serve", "--port", "\(port)", "--database", database]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var lines: [String] = []
        var bound = 0
        while bound == 0, let line = PaymentCommandTests.ServedGateway.readLine(out.fileHandleForReading) {
            lines.append(line)
            if line.hasPrefix("listening on "), let url = URL(string: String(line.dropFirst("listening on ".count))) {
                bound = url.port ?? 0
            }
        }
        printed = lines
        guard bound != 0 else {
            process.terminate()
            process.waitUntilExit()
            throw StartFailure(description: "the gateway did not listen: \(lines)")
        }
        self.port = bound
        let handle = out.fileHandleForReading
        Thread.detachNewThread {
            while !handle.readData(ofLength: 4096).isEmpty {}
        }
    }

    /// The value printed after `name` (`user`, `password`, `api key`, `merchant`) in the
    /// bootstrap credentials block, or nil when this instance printed none.
    func credential(_ name: String) -> String? {
        guard printed.contains(where: { $0.hasPrefix("created sandbox merchant") }) else { return nil }
        for line in printed where line.hasPrefix(name + " ") {
            return line.split(separator: " ").last.map(String.init)
        }
        return nil
    }

    /// Kills the process with SIGKILL, as a crash or an OOM killer would, and reaps it.
    func kill() {
        #if canImport(Glibc)
            _ = Glibc.kill(process.processIdentifier, SIGKILL)
        #else
            _ = Darwin.kill(process.processIdentifier, SIGKILL)
        #endif
        process.waitUntilExit()
    }

    /// Stops the process with SIGTERM if it still runs.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}
