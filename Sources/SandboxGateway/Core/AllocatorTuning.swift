#if canImport(Glibc)
    import Glibc
#endif

extension SandboxGateway {
    /// Keeps glibc from handing freed memory back to the kernel after nearly every request,
    /// for a process whose main work is serving the gateway under load.
    ///
    /// By default glibc trims a thread arena's heap as soon as 128 KiB at its top are free,
    /// and under load the database writer thread did that several times per group commit,
    /// on the path every authorization waits for. This raises the
    /// trim threshold to 64 MiB and serves allocations under 32 MiB from the heap.
    ///
    /// It changes the whole process's allocator, so the library never calls it: a server
    /// executable (the `mpos gateway serve` command, the benchmarks) opts in once at start.
    /// Idempotent; does nothing on platforms without glibc.
    ///
    /// - Returns: whether the settings were applied.
    @discardableResult
    public static func tuneProcessAllocatorForServing() -> Bool {
        allocatorTuned
    }

    private static let allocatorTuned: Bool = {
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
            return true
        #else
            return false
        #endif
    }()
}
