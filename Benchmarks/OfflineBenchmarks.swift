import Foundation
import GatewayAPI
import MPOSCore
import MPOSKit
import MPOSKitNIO
import SandboxGateway

/// `offline.forward.throughput`: stored offline sales forwarded per second by
/// `terminal.offline.forward()` to the sandbox gateway (real HTTP on loopback through
/// AsyncHTTPClient, real SQLite on both sides: the terminal's encrypted store, the gateway's
/// ledger), with `gateway.authorize.throughput` measured first on the same gateway in the same
/// run and the ratio of the two (the bar is 0.5).
///
/// The 10,000 stored sales (`MPOS_BENCH_OFFLINE`) are made by the reader simulator's kernel
/// as a card gives them offline: the terminal answers "unable to go online" and the card's TC
/// at the second GENERATE AC is stored with the DUKPT-sealed card data
/// (``GatewayBenchmarks/kernelRequests(amounts:salt:offline:duplicateCheck:)``). The gateway
/// checks each like any forward: the TC verified by the issuer, the counters against replay.
/// They go into the store in one synced write (`terminal.offline.store`), not through 10,000
/// reader sessions, which would measure the reader rather than the forward. The same line
/// carries `sequential_forwards_per_s`: 2,000 more sales forwarded one at a time with a synced
/// mark each (`window: 1`), as the SDK forwarded before the window.
enum OfflineBenchmarks {
    static let name = "offline.forward.throughput"
    static let count = ProcessInfo.processInfo.environment["MPOS_BENCH_OFFLINE"].flatMap(Int.init) ?? 10_000
    /// Sales forwarded one at a time for the comparison (`sequential_forwards_per_s`).
    static let sequentialCount = count / 5

    /// Runs the benchmark when its name starts with `prefix`; `false` otherwise.
    static func run(prefix: String) async throws -> Bool {
        guard name.hasPrefix(prefix) || prefix.hasPrefix(name) else { return false }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mposkit-bench-offline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let gateway = try await SandboxGateway.start(
            SandboxGatewayConfiguration(
                port: 0, databasePath: directory.appendingPathComponent("gateway.sqlite").path,
                passwordHashRounds: 1_000, logLevel: .critical))
        guard let credentials = gateway.credentials else {
            throw BenchmarkFailure("the sandbox gateway has no credentials")
        }
        let token = try GatewayBenchmarks.clientToken(port: gateway.port, credentials: credentials)
        // Kernel salts 0 and 1; the stored sales take 2, so their counters come after these.
        let authorizations = try await GatewayBenchmarks.measureAuthorizations(port: gateway.port, token: token)

        let transport = NIOGatewayTransport()
        let terminal = try PaymentTerminal(
            environment: gateway.baseURL,
            credentials: .login(user: credentials.user, password: credentials.password),
            journalPath: directory.appendingPathComponent("journal.sqlite").path, transport: transport)
        try await terminal.login()
        // The window the SDK uses, then one forward at a time (each mark synced on its own) on
        // fewer sales, as forwarding was before the window: their ratio is what it buys.
        let windowed = try await forward(terminal, count: count, salt: 2, window: nil)
        let sequential = try await forward(terminal, count: sequentialCount, salt: 3, window: 1)
        emit(
            name: name, unit: "forwards/s", value: windowed.rate,
            extra: [
                "authorize_per_s": authorizations.rate, "ratio_to_authorize": windowed.rate / authorizations.rate,
                "cpu_us_per_forward": windowed.cpuPerForward, "sequential_forwards_per_s": sequential.rate,
                "sequential_cpu_us_per_forward": sequential.cpuPerForward,
            ],
            count: count)
        await transport.shutdown()
        await gateway.shutdown()
        return true
    }

    /// Stores `count` TC sales made with kernel `salt` and forwards them with `window` (nil:
    /// the SDK's); every one must come back approved.
    static func forward(_ terminal: PaymentTerminal, count: Int, salt: UInt32, window: Int?) async throws
        -> (rate: Double, cpuPerForward: Double)
    {
        // Small amounts, no duplicate check: thousands of sales on six cards stay within their balance.
        let amounts = GatewayBenchmarks.distinctAmounts(from: 10, count: 50)
        let requests = try GatewayBenchmarks.kernelRequests(
            amounts: (0..<count).map { amounts[$0 % amounts.count] }, salt: salt, offline: true,
            duplicateCheck: false)
        _ = try await terminal.offline.storeApproved(requests.map { ($0, IdempotencyKey()) })
        let cpuBefore = processCPUMicroseconds()
        let start = monotonicNanoseconds()
        let report: OfflineForwardReport
        if let window {
            report = try await terminal.offline.forward(window: window)
        } else {
            report = try await terminal.offline.forward()
        }
        let seconds = Double(monotonicNanoseconds() - start) / 1e9
        let approved = report.outcomes.filter(\.approved).count
        guard report.outcomes.count == count, approved == count else {
            throw BenchmarkFailure(
                "forwarded \(report.outcomes.count) of \(count), \(approved) approved: "
                    + "\(report.outcomes.first { !$0.approved }?.responseCode ?? "-")")
        }
        return (Double(count) / seconds, (processCPUMicroseconds() - cpuBefore) / Double(count))
    }
}
