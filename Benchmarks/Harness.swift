#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One benchmark: a name, and a body that runs the measured operation `count` times.
struct Benchmark {
    let name: String
    let unit: String
    /// Runs the operation `count` times; returns a value derived from the results, so the
    /// optimizer cannot drop the work.
    let run: (_ count: Int) throws -> Int
    /// Operations per timed batch.
    var batch: Int = 1_000
    /// Timed batches; their per-operation times give the median and percentiles.
    var batches: Int = 300
}

/// CPU time (user and system, all threads) this process has used, in microseconds: a
/// per-request cost that, unlike a rate, holds up when other work shares the machine.
func processCPUMicroseconds() -> Double {
    var usage = rusage()
    #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
        getrusage(RUSAGE_SELF, &usage)
    #endif
    func micro(_ t: timeval) -> Double { Double(t.tv_sec) * 1e6 + Double(t.tv_usec) }
    return micro(usage.ru_utime) + micro(usage.ru_stime)
}

/// Nanoseconds on the monotonic clock.
@inline(__always)
func monotonicNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Results that must not be optimized away end up here.
nonisolated(unsafe) var sink = 0

/// Runs a benchmark: warm-up, then timed batches. Prints one JSON line
/// `{"name":…,"unit":"ns","value":median,"p50":…,"p99":…,"samples":batches}` where each
/// sample is the mean time per operation within one batch.
func measure(_ benchmark: Benchmark) throws {
    sink &+= try benchmark.run(benchmark.batch * 10)  // warm-up
    var samples: [Double] = []
    samples.reserveCapacity(benchmark.batches)
    for _ in 0..<benchmark.batches {
        let start = monotonicNanoseconds()
        sink &+= try benchmark.run(benchmark.batch)
        let elapsed = monotonicNanoseconds() - start
        samples.append(Double(elapsed) / Double(benchmark.batch))
    }
    samples.sort()
    let p50 = percentile(samples, 0.50)
    let p99 = percentile(samples, 0.99)
    emit(name: benchmark.name, unit: benchmark.unit, value: p50, extra: ["p50": p50, "p99": p99],
        count: samples.count)
}

/// The value at fraction `q` of sorted samples (nearest rank).
func percentile(_ sorted: [Double], _ q: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let rank = Int((q * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}

/// Prints one figure as a JSON line.
func emit(name: String, unit: String, value: Double, extra: [String: Double] = [:], count: Int? = nil) {
    var fields = ["\"name\":\"\(name)\"", "\"unit\":\"\(unit)\"", "\"value\":\(format(value))"]
    for key in extra.keys.sorted() { fields.append("\"\(key)\":\(format(extra[key]!))") }
    if let count { fields.append("\"samples\":\(count)") }
    print("{" + fields.joined(separator: ",") + "}")
}

private func format(_ value: Double) -> String {
    // One decimal, or three under 10 so that ratios and small counts keep their meaning.
    guard value.isFinite else { return "null" }
    return value.magnitude < 10 ? String((value * 1000).rounded() / 1000) : String((value * 10).rounded() / 10)
}
