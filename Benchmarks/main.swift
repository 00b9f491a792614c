// MPOSKit benchmarks: one JSON line per figure on standard output.
//
//     swift run -c release Benchmarks            # everything
//     swift run -c release Benchmarks tlv.       # only names starting with "tlv."
//     swift run -c release Benchmarks nexo.      # Terminal API JSON and encryption
//     swift run -c release Benchmarks gateway    # gateway throughput and latency (with the raw commit rate)
//     swift run -c release Benchmarks sqlite     # durable single-row commits with the gateway's pragmas
//     swift run -c release Benchmarks offline.   # stored offline sales forwarded, against authorize
//     swift run -c release Benchmarks report.    # reports over a million payments, against plain SQL
//
// Latencies carry "p50" and "p99"; "value" is the median. Run on a quiet machine and compare
// figures from the same run.

import Foundation
import SandboxGateway

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let prefix = CommandLine.arguments.dropFirst().first ?? ""
// The gateway and sale figures serve the sandbox gateway in this process, as `mpos gateway
// serve` does, so the process takes the same allocator settings.
SandboxGateway.tuneProcessAllocatorForServing()
// The reader-link figures run with Swift concurrency on NIO's event loops (no thread hop per
// frame), as a reader host process would. Only when they run alone: the gateway benchmarks
// make blocking SQLite calls, which must not occupy the event loops.
// The SDK and the emulated reader share this process; on one event loop (the default here) a
// request and its answer never cross threads, so the figure is the protocol stack's and not
// the machine's thread wake-up. `MPOS_BENCH_LOOPS=2` measures the two-thread case.
if prefix.hasPrefix("readerlink") {
    let loops = ProcessInfo.processInfo.environment["MPOS_BENCH_LOOPS"].flatMap(Int.init) ?? 1
    ConcurrencyOnEventLoops.install(threads: loops)
    readerLinkEventLoops = loops
}

// The sale figures run on Swift's default executor, as an app's would. `MPOS_SALE_LOOPS=N`
// runs them with Swift concurrency on N NIO event loops instead, as a POS host process on
// Linux may (`ConcurrencyOnEventLoops`): with one, the SDK, the emulated reader and the gateway's
// handlers hand work to each other without waking threads, and the figure is closer to the
// sale's own CPU and syncs than to the machine's thread wake-ups. SQLite runs on GRDB's and
// the group commit's own threads either way.
if prefix.hasPrefix("sale"),
    let loops = ProcessInfo.processInfo.environment["MPOS_SALE_LOOPS"].flatMap(Int.init)
{
    ConcurrencyOnEventLoops.install(threads: max(1, loops))
}

do {
    let ranGateway = try await GatewayBenchmarks.run(prefix: prefix)
    let ranOffline = try await OfflineBenchmarks.run(prefix: prefix)
    let ranReports = try await ReportBenchmarks.run(prefix: prefix)
    let ranPostgres = try await PostgresGatewayBenchmarks.run(prefix: prefix)
    let synchronous =
        try tlvBenchmarks() + codecBenchmarks() + nexoBenchmarks() + [GatewayBenchmarks.issuerBenchmark()]
    let asynchronous =
        readerLinkBenchmarks() + saleBenchmarks() + updateBenchmarks() + linkBenchmarks() + pcscBenchmarks()
    let known =
        synchronous.map(\.name) + asynchronous.map(\.name) + [
            "gateway.authorize.throughput", "gateway.authorize.latency", "sqlite.durable_commit.throughput",
            OfflineBenchmarks.name,
        ] + ReportBenchmarks.names + PostgresGatewayBenchmarks.names
    let selectedSync = synchronous.filter { $0.name.hasPrefix(prefix) }
    let selectedAsync = asynchronous.filter { $0.name.hasPrefix(prefix) }
    if selectedSync.isEmpty && selectedAsync.isEmpty && !ranGateway && !ranOffline && !ranReports && !ranPostgres {
        printError("no benchmark name starts with \"\(prefix)\"; known: \(known.joined(separator: ", "))")
        exit(1)
    }
    for benchmark in selectedSync { try measure(benchmark) }
    for benchmark in selectedAsync { try await benchmark.run() }
    if sink == 42 { printError("") }
} catch {
    printError("benchmark failed: \(error)")
    exit(1)
}

/// Writes a line to standard error.
func printError(_ line: String) {
    FileDescriptorOutput.standardError.write(line + "\n")
}

enum FileDescriptorOutput {
    case standardError
    func write(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }
}
