#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finding bytes in files, for the tests that scan everything a run wrote for card numbers.
///
/// The C library's `memchr` and `memcmp` do the scanning, because the files scanned include
/// SQLite's write-ahead logs with megabytes of room reserved in them: a byte-by-byte search
/// in Swift, built for debugging, took minutes over them and starved the tests beside it.
public enum ByteSearch {
    /// Whether `needle` occurs in `haystack` (never for an empty needle).
    public static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        return haystack.withUnsafeBytes { h in
            needle.withUnsafeBytes { n in
                guard let base = h.baseAddress, let wanted = n.baseAddress else { return false }
                let last = h.count - n.count  // the last offset a match can start at
                var offset = 0
                while offset <= last {
                    // The next candidate: where the needle's first byte occurs.
                    guard let hit = memchr(base + offset, Int32(first), last - offset + 1) else {
                        return false
                    }
                    offset = base.distance(to: UnsafeRawPointer(hit))
                    if memcmp(base + offset, wanted, n.count) == 0 { return true }
                    offset += 1
                }
                return false
            }
        }
    }
}
