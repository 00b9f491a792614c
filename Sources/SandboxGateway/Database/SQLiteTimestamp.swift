import Foundation
import SandboxCards

/// The text GRDB stores for a `Date` (`yyyy-MM-dd HH:mm:ss.SSS`, UTC, to the nearest
/// millisecond, as its `DateFormatter` rounds), made by arithmetic instead.
///
/// GRDB binds a `Date` through a shared `DateFormatter`, which goes through ICU: the
/// gateway's authorization path binds its dates inside the serialized group-commit writer,
/// whose time bounds the gateway's throughput. Binding this string instead stores exactly
/// the same text (a test compares the two over many dates), so queries, ordering and
/// reading dates back are unchanged.
enum SQLiteTimestamp {
    /// The stored text for `date`.
    static func string(from date: Date) -> String {
        let t = UTCDate(date, roundingToNearestMillisecond: true)
        var bytes = [UInt8]()
        bytes.reserveCapacity(23)
        append((t.year, 4), (t.month, 2), (t.day, 2), separatedBy: UInt8(ascii: "-"), to: &bytes)
        bytes.append(UInt8(ascii: " "))
        append((t.hour, 2), (t.minute, 2), (t.second, 2), separatedBy: UInt8(ascii: ":"), to: &bytes)
        bytes.append(UInt8(ascii: "."))
        appendDigits(t.millisecond, width: 3, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Three zero-padded fields (value, width) with a separator between them.
    private static func append(
        _ a: (Int64, Int), _ b: (Int64, Int), _ c: (Int64, Int), separatedBy separator: UInt8,
        to bytes: inout [UInt8]
    ) {
        appendDigits(a.0, width: a.1, to: &bytes)
        bytes.append(separator)
        appendDigits(b.0, width: b.1, to: &bytes)
        bytes.append(separator)
        appendDigits(c.0, width: c.1, to: &bytes)
    }

    /// Appends `value` in decimal, zero-padded to `width` digits (higher digits are dropped).
    private static func appendDigits(_ value: Int64, width: Int, to bytes: inout [UInt8]) {
        var scale: Int64 = 1
        for _ in 1..<width { scale *= 10 }
        while scale > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(value / scale % 10))
            scale /= 10
        }
    }
}
