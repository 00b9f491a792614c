import Foundation
import GatewayAPI
import MPOSCore
import MPOSKit
import MPOSKitNIO
import MPOSTestSupport
import ReaderLink
import ReaderLinkTCP
import ReaderSimulator
import SandboxGateway

/// Figures with the reader behind a link as slow as a radio (`LinkProfile`, as `mpos reader
/// emulate --link-kbps --mtu --link-delay-ms`):
///
/// - `update.transfer.efficiency`: a 1 MiB firmware image written by the SDK's updater over a
///   64 kB/s link with an MTU of 180 bytes, in bytes per second of the write stage divided by the
///   link's rate.
/// - `update.resume.resent_bytes`: bytes the reader received twice when the link is cut at a
///   seeded random point of the write and the update resumed (median and worst of the runs).
/// - `sale.link.latency`: a sale's wall time against a one-way delay on the reader's link and,
///   separately, on the gateway's; the slopes are `reader_hops` (one-way crossings on the
///   critical path) and `gateway_round_trips`.
func linkBenchmarks() -> [AsyncBenchmark] {
    [
        AsyncBenchmark(name: "update.transfer.efficiency") {
            let rate = 64_000
            let link = LinkProfile(bytesPerSecond: rate, mtu: 180)
            try await withLinkedSandbox(link: link) { sandbox in
                let image = (0..<(1024 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 29) }
                try await sandbox.publish(image, version: "2.0.0")
                _ = try await sandbox.terminal.updates.check()
                let operation = sandbox.terminal.updates.downloadAndApply()
                var started: UInt64?
                var finished: UInt64 = 0
                var from: Int64 = 0
                for await step in operation.progress where step.stage == .writeFileToTerminal {
                    if started == nil {
                        started = monotonicNanoseconds()
                        from = step.bytesDone ?? 0
                    }
                    if step.bytesDone == step.bytesTotal { finished = monotonicNanoseconds() }
                }
                let result = await operation.result()
                guard result.type == .success, let started else {
                    throw BenchmarkFailure("the update ended \(result.type): \(result.message ?? "")")
                }
                let seconds = Double(finished - started) / 1e9
                let bytesPerSecond = Double(Int64(image.count) - from) / seconds
                emit(
                    name: "update.transfer.efficiency", unit: "ratio", value: bytesPerSecond / Double(rate),
                    extra: ["bytes_per_s": bytesPerSecond, "link_bytes_per_s": Double(rate), "mtu": 180])
            }
        },
        AsyncBenchmark(name: "update.resume.resent_bytes") {
            var generator = SplitMix64(seed: 2026_11_26)
            var resent: [Double] = []
            for round in 0..<10 {
                let image = (0..<(256 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ round) }
                // The link is cut once, when the reader has somewhere between a tenth and nine tenths.
                let cutAt = Int64.random(in: Int64(image.count / 10)...Int64(image.count * 9 / 10), using: &generator)
                let link = LinkProfile(bytesPerSecond: 256_000, mtu: 180)
                try await withLinkedSandbox(link: link) { sandbox in
                    try await sandbox.publish(image, version: "2.0.\(round)")
                    _ = try await sandbox.terminal.updates.check()
                    let operation = sandbox.terminal.updates.downloadAndApply()
                    var cut = false
                    for await step in operation.progress
                    where !cut && step.stage == .writeFileToTerminal && (step.bytesDone ?? 0) >= cutAt {
                        cut = true
                        await sandbox.reader.dropLink()
                    }
                    let result = await operation.result()
                    guard result.type == .success, cut else {
                        throw BenchmarkFailure("round \(round): the update ended \(result.type) (cut: \(cut)): \(result.message ?? "")")
                    }
                    resent.append(Double(await sandbox.reader.rewrittenUpdateBytes))
                }
            }
            resent.sort()
            emit(
                name: "update.resume.resent_bytes", unit: "bytes", value: resent[resent.count / 2],
                extra: ["max": resent.last ?? 0, "chunk": 3_987, "runs": Double(resent.count)])
        },
        AsyncBenchmark(name: "sale.link.latency") {
            let delays = [0, 10, 20]
            var readerTimes: [Double] = []
            for delay in delays {
                readerTimes.append(try await medianSaleMilliseconds(readerDelay: delay, gatewayDelay: 0))
            }
            var gatewayTimes: [Double] = []
            for delay in delays {
                gatewayTimes.append(try await medianSaleMilliseconds(readerDelay: 0, gatewayDelay: delay))
            }
            let readerSlope = slope(x: delays.map(Double.init), y: readerTimes)
            let gatewaySlope = slope(x: delays.map(Double.init), y: gatewayTimes)
            emit(
                name: "sale.link.latency", unit: "ms", value: readerTimes[0],
                extra: [
                    "reader_hops": readerSlope, "gateway_round_trips": gatewaySlope / 2,
                    "ms_at_reader_delay_10": readerTimes[1], "ms_at_reader_delay_20": readerTimes[2],
                    "ms_at_gateway_delay_10": gatewayTimes[1], "ms_at_gateway_delay_20": gatewayTimes[2],
                ])
        },
    ]
}

/// The least-squares slope of `y` against `x`.
private func slope(x: [Double], y: [Double]) -> Double {
    let mx = x.reduce(0, +) / Double(x.count)
    let my = y.reduce(0, +) / Double(y.count)
    let covariance = zip(x, y).map { ($0 - mx) * ($1 - my) }.reduce(0, +)
    let variance = x.map { ($0 - mx) * ($0 - mx) }.reduce(0, +)
    return covariance / variance
}

/// The median of 15 sales (after 3 to warm up) with the reader's link and the gateway each
/// delayed one way by the given milliseconds.
private func medianSaleMilliseconds(readerDelay: Int, gatewayDelay: Int) async throws -> Double {
    try await withLinkedSandbox(
        link: LinkProfile(oneWayDelay: .milliseconds(readerDelay)), gatewayDelay: .milliseconds(gatewayDelay)
    ) { sandbox in
        var amount: Int64 = 200
        let samples = try await sampleLatencies(warmUp: 3, count: 15) {
            amount += 1
            let result = try await sandbox.terminal.sale(PaymentParameters(amount: amount, currency: .eur))
            guard result.status == .approved else { throw BenchmarkFailure("a sale ended \(result.status)") }
        }
        return samples.sorted()[samples.count / 2] / 1e6
    }
}

/// A sandbox gateway (reached through `gatewayDelay` each way), a simulated reader behind
/// `link` on loopback TCP, and a terminal logged in and connected so that it can reach the
/// reader again after a restart.
private struct LinkedSandbox {
    let terminal: PaymentTerminal
    let reader: SimulatedReader
    let gatewayConfiguration: SandboxGatewayConfiguration

    func publish(_ image: [UInt8], version: String) async throws {
        _ = try await SandboxGateway.publishUpdate(
            gatewayConfiguration, UpdatePublication(model: "Simulated Reader R1", kind: .firmware, version: version),
            content: Data(image))
    }
}

private func withLinkedSandbox<T>(
    link: LinkProfile, gatewayDelay: Duration = .zero,
    _ body: (LinkedSandbox) async throws -> T
) async throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mpos-bench-link-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let configuration = SandboxGatewayConfiguration(
        port: 0, databasePath: directory.appendingPathComponent("gateway.sqlite").path, passwordHashRounds: 1_000,
        logLevel: .critical)
    let gateway = try await SandboxGateway.start(configuration)
    guard let credentials = gateway.credentials else { throw BenchmarkFailure("no sandbox credentials") }
    let secret = try SharedSecret(hex: SimulatedReaderConfiguration.sandboxSecretHex)
    var readerConfiguration = SimulatedReaderConfiguration(secret: secret)
    readerConfiguration.battery = Battery(percentage: 100, isCharging: true, drainPerTransaction: 0)
    readerConfiguration.link = link
    let reader = SimulatedReader(configuration: readerConfiguration)
    let server = try await TCPReaderServer.bind(host: "127.0.0.1", port: 0)
    let connections = server.connections
    let serving = Task { for await connection in connections { Task { await reader.serve(connection) } } }
    let transport = NIOGatewayTransport()
    let terminal = try PaymentTerminal(
        environment: gateway.baseURL, credentials: .login(user: credentials.user, password: credentials.password),
        journalPath: directory.appendingPathComponent("journal.sqlite").path,
        transport: DelayedGatewayTransport(base: transport, oneWayDelay: gatewayDelay))
    let port = server.port
    let outcome: Result<T, any Error>
    do {
        try await terminal.login()
        try await terminal.reader.connect(secret: secret) { try await TCPTransport.connect(host: "127.0.0.1", port: port) }
        outcome = .success(
            try await body(LinkedSandbox(terminal: terminal, reader: reader, gatewayConfiguration: configuration)))
    } catch {
        outcome = .failure(error)
    }
    await terminal.disconnect()
    await server.close()
    serving.cancel()
    await transport.shutdown()
    await gateway.shutdown()
    return try outcome.get()
}

/// A gateway transport whose requests and answers each take `oneWayDelay` longer, as over a
/// distant network.
private struct DelayedGatewayTransport: GatewayTransport {
    let base: any GatewayTransport
    let oneWayDelay: Duration

    func send(_ request: GatewayHTTPRequest, to baseURL: URL) async throws(GatewayTransportError) -> GatewayHTTPResponse {
        try? await Task.sleep(for: oneWayDelay)
        let response = try await base.send(request, to: baseURL)
        try? await Task.sleep(for: oneWayDelay)
        return response
    }
}
