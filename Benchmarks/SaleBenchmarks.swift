import Foundation
import MPOSCore
import MPOSKit
import MPOSKitNIO
import ReaderLink
import ReaderLinkTCP
import ReaderSimulator
import SandboxGateway

/// `sale.e2e.latency`: one whole sale through MPOSKit, in milliseconds, with the process's CPU
/// time per sale (`cpu_us_per_sale`: SDK, emulated reader and gateway together) — validation, the
/// durable journal write, the reader transaction over loopback TCP (simulated reader, no
/// human delays, Visa credit with online PIN), the gateway's authorization over loopback
/// HTTP with the issuer's ARQC check, the reader's completion (TC) and the journal's outcome.
///
/// The terminal reaches the gateway over AsyncHTTPClient (`MPOSKitNIO`), as an app on Linux does.
/// `sale.e2e.urlsession.latency` is the same sale over the SDK's default transport
/// (`URLSession`, libcurl on Linux), and `sale.e2e.inprocess.latency` the same sale with the
/// simulated reader found by `SimulatedReaderScanner` (the same protocol over an in-process
/// link instead of loopback TCP), for comparison in the same run.
func saleBenchmarks() -> [AsyncBenchmark] {
    [
        AsyncBenchmark(name: "sale.e2e.latency") {
            let transport = NIOGatewayTransport()
            try await measureSales(name: "sale.e2e.latency", transport: transport)
            await transport.shutdown()
        },
        AsyncBenchmark(name: "sale.e2e.urlsession.latency") {
            try await measureSales(name: "sale.e2e.urlsession.latency", transport: URLSessionGatewayTransport())
        },
        AsyncBenchmark(name: "sale.e2e.inprocess.latency") {
            let transport = NIOGatewayTransport()
            try await measureSales(name: "sale.e2e.inprocess.latency", transport: transport, readerOverTCP: false)
            await transport.shutdown()
        },
    ]
}

/// Starts a sandbox gateway and a simulated reader, then times 300 sales (after 20 to warm
/// up) through a terminal that reaches the gateway over `transport`.
///
/// With a `cardSource` the reader's kernel talks to that card (`pcsc.sale.latency`) instead of
/// its card in software.
func measureSales(
    name: String, transport: any GatewayTransport, readerOverTCP: Bool = true,
    cardSource: (any ChipCardSource)? = nil, warmUp: Int = 20, count: Int = 300
) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "mpos-bench-sale-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let gateway = try await SandboxGateway.start(SandboxGatewayConfiguration(
        port: 0, databasePath: directory.appendingPathComponent("gateway.sqlite").path,
        passwordHashRounds: 10_000, logLevel: .critical,
        groupCommit: ProcessInfo.processInfo.environment["MPOS_GATEWAY_GROUP_COMMIT"] != "0"))
    guard let credentials = gateway.credentials else { throw BenchmarkFailure("no sandbox credentials") }

    let secret = try SharedSecret(hex: SimulatedReaderConfiguration.sandboxSecretHex)
    var readerConfiguration = SimulatedReaderConfiguration(secret: secret)
    // On external power: hundreds of sales must not drain it to the refusal threshold.
    readerConfiguration.battery = Battery(percentage: 100, isCharging: true, drainPerTransaction: 0)
    readerConfiguration.cardSource = cardSource
    let reader = SimulatedReader(configuration: readerConfiguration)
    let server = try await TCPReaderServer.bind(host: "127.0.0.1", port: 0)
    let connections = server.connections
    let serving = Task { for await link in connections { Task { await reader.serve(link) } } }

    let terminal = try PaymentTerminal(
        environment: gateway.baseURL,
        credentials: .login(user: credentials.user, password: credentials.password),
        journalPath: directory.appendingPathComponent("journal.sqlite").path, transport: transport)
    try await terminal.login()
    if readerOverTCP {
        try await terminal.reader.connect(
            transport: try await TCPTransport.connect(host: "127.0.0.1", port: server.port), secret: secret)
    } else {
        try await terminal.reader.connect(reader.discovered, secret: secret)
    }

    var amount: Int64 = 100  // 1.00 EUR upwards: small sales stay within the card's credit limit
    let cpuBefore = processCPUMicroseconds()
    let samples = try await sampleLatencies(warmUp: warmUp, count: count) {
        // Distinct amounts that trigger no sandbox scenario.
        amount += 1
        if (amount % 1000) >= 120 && (amount % 1000) <= 140 { amount += 21 }
        let result = try await terminal.sale(
            PaymentParameters(amount: amount, currency: .eur, duplicateCheck: false))
        guard result.status == .approved else {
            throw BenchmarkFailure("sale of \(amount) was \(result.status.rawValue)")
        }
    }
    // SDK, reader emulator and gateway share this process and the machine's cores: the CPU a
    // sale costs them all holds up better than its latency when other work runs.
    let cpuPerSale = (processCPUMicroseconds() - cpuBefore) / Double(warmUp + count)
    emitLatency(name: name, unit: "ms", nanoseconds: samples, extra: ["cpu_us_per_sale": cpuPerSale])

    await terminal.disconnect()
    await server.close()
    serving.cancel()
    await gateway.shutdown()
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
