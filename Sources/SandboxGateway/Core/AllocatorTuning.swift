#if canImport(Glibc)
    import Glibc
#endif

/// Allocator settings for a process that serves the gateway.
enum AllocatorTuning {
    /// Keeps glibc from handing freed memory back to the kernel after nearly every request.
    ///
    /// By default glibc trims a thread arena's heap with `madvise` as soon as 128 KiB at its
    /// top are free. Under load the database writer thread did that several times per group
    /// commit; each call flushes TLBs on both cores (an interrupt to the other one), and it
    /// was a tenth of the writer's time, on the path every authorization waits for. Trimming
    /// at 64 MiB instead, and serving allocations under 32 MiB from the heap rather than
    /// from fresh mappings, removes those calls (measured with `perf` on
    /// `Benchmarks gateway`); memory still goes back to the kernel when much of it is free.
    /// Process-wide and idempotent; nothing on other platforms.
    static func applyOnce() {
        _ = applied
    }

    private static let applied: Bool = {
        #if canImport(Glibc)
            // `mallopt` is declared in <malloc.h>, which the Glibc module does not export;
            // it is looked up by name. Parameter numbers from <malloc.h>.
            typealias MallocOption = @convention(c) (Int32, Int32) -> Int32
            let trimThreshold: Int32 = -1
            let mmapThreshold: Int32 = -3
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return false }
            let mallopt = unsafeBitCast(symbol, to: MallocOption.self)
            _ = mallopt(trimThreshold, 64 << 20)
            _ = mallopt(mmapThreshold, 32 << 20)
        #endif
        return true
    }()
}
