import Foundation

/// The leading bytes of identifiers that sort by age: idempotency keys (version 7 UUIDs) and
/// the sandbox gateway's transaction ids. Indexes on such identifiers grow at their end.
package enum TimeOrderedPrefix {
    /// `date` in milliseconds since 1970 as 6 big-endian bytes (RFC 9562's `unix_ts_ms`). A
    /// time before 1970 counts as 0; one past the 48-bit range as its largest value.
    package static func bytes(of date: Date) -> [UInt8] {
        let milliseconds = date.timeIntervalSince1970 * 1000
        let stamp: UInt64 = milliseconds > 0 ? min(UInt64(milliseconds), (1 << 48) - 1) : 0
        return (0..<6).map { UInt8(truncatingIfNeeded: stamp >> (40 - 8 * UInt64($0))) }
    }
}
