import Foundation

/// A benchmark whose operation is asynchronous (a round trip over a socket, an HTTP request).
/// It prints its own JSON lines through `emit`.
struct AsyncBenchmark {
    let name: String
    let run: () async throws -> Void
}

/// Latency samples of `operation`, one per call, in nanoseconds, sorted. With
/// `MPOS_BENCH_SERIES` set, also prints them in the order they were taken (µs) on stderr.
func sampleLatencies(
    warmUp: Int, count: Int, _ operation: () async throws -> Void
) async rethrows -> [Double] {
    for _ in 0..<warmUp { try await operation() }
    var samples: [Double] = []
    samples.reserveCapacity(count)
    for _ in 0..<count {
        let start = monotonicNanoseconds()
        try await operation()
        samples.append(Double(monotonicNanoseconds() - start))
    }
    if ProcessInfo.processInfo.environment["MPOS_BENCH_SERIES"] != nil {
        printError(samples.map { String(Int($0 / 1000)) }.joined(separator: " "))
    }
    samples.sort()
    return samples
}

/// Prints a latency figure (median as the value, with p50 and p99) in `unit` ("us" or "ms").
func emitLatency(name: String, unit: String, nanoseconds samples: [Double], extra: [String: Double] = [:]) {
    let scale = unit == "ms" ? 1e6 : 1e3
    let p50 = percentile(samples, 0.50) / scale
    let p99 = percentile(samples, 0.99) / scale
    emit(
        name: name, unit: unit, value: p50, extra: extra.merging(["p50": p50, "p99": p99]) { $1 },
        count: samples.count)
}
