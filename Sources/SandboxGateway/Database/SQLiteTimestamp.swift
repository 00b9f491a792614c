import Foundation

/// The text GRDB stores for a `Date` (`yyyy-MM-dd HH:mm:ss.SSS`, UTC, to the nearest
/// millisecond, as its `DateFormatter` rounds), made by arithmetic instead.
///
/// GRDB binds a `Date` through a shared `DateFormatter`, which goes through ICU: the
/// gateway's authorization path binds its dates inside the serialized group-commit writer,
/// whose time bounds the gateway's throughput. Binding this string instead stores exactly
/// the same text (a test compares the two over many dates), so queries, ordering and
/// reading dates back are unchanged.
enum SQLiteTimestamp {
    private static let millisecondsPerDay: Int64 = 86_400_000

    /// The stored text for `date`.
    static func string(from date: Date) -> String {
        let t = UTCTime(date, roundingToNearestMillisecond: true)
        var bytes = [UInt8]()
        bytes.reserveCapacity(23)
        t.appendDate(to: &bytes)
        bytes.append(UInt8(ascii: " "))
        t.appendTime(to: &bytes)
        bytes.append(UInt8(ascii: "."))
        appendDigits(t.millisecond, width: 3, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A date's UTC calendar fields, to the millisecond.
    struct UTCTime {
        var year, month, day, hour, minute, second, millisecond: Int64

        /// The fields of `date`, its milliseconds rounded to the nearest (halves up) or cut off.
        init(_ date: Date, roundingToNearestMillisecond: Bool) {
            // The same sum as Foundation hands to ICU: seconds since 1970, in milliseconds.
            let exact =
                (date.timeIntervalSinceReferenceDate + Date.timeIntervalBetween1970AndReferenceDate) * 1000
            let milliseconds = Int64((roundingToNearestMillisecond ? exact + 0.5 : exact).rounded(.down))
            let (days, inDay) = SQLiteTimestamp.floorDivision(
                milliseconds, SQLiteTimestamp.millisecondsPerDay)
            (year, month, day) = SQLiteTimestamp.civilDate(daysSince1970: days)
            hour = inDay / 3_600_000
            minute = inDay / 60_000 % 60
            second = inDay / 1000 % 60
            millisecond = inDay % 1000
        }

        /// `yyyy-MM-dd`.
        func appendDate(to bytes: inout [UInt8]) {
            Self.append((year, 4), (month, 2), (day, 2), separatedBy: UInt8(ascii: "-"), to: &bytes)
        }

        /// `HH:mm:ss`.
        func appendTime(to bytes: inout [UInt8]) {
            Self.append((hour, 2), (minute, 2), (second, 2), separatedBy: UInt8(ascii: ":"), to: &bytes)
        }

        /// Three zero-padded fields (value, width) with a separator between them.
        private static func append(
            _ a: (Int64, Int), _ b: (Int64, Int), _ c: (Int64, Int), separatedBy separator: UInt8,
            to bytes: inout [UInt8]
        ) {
            SQLiteTimestamp.appendDigits(a.0, width: a.1, to: &bytes)
            bytes.append(separator)
            SQLiteTimestamp.appendDigits(b.0, width: b.1, to: &bytes)
            bytes.append(separator)
            SQLiteTimestamp.appendDigits(c.0, width: c.1, to: &bytes)
        }
    }

    /// Quotient rounded towards minus infinity, and a remainder in `0..<divisor`.
    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }

    /// The proleptic Gregorian year, month and day of a day number counted from 1970-01-01.
    /// Works in 400-year eras (146,097 days each), which repeat exactly; within an era the
    /// year is taken to start on 1 March, so the leap day falls at its end.
    private static func civilDate(daysSince1970: Int64) -> (Int64, Int64, Int64) {
        let shifted = daysSince1970 + 719_468  // days from 0000-03-01 to 1970-01-01
        let era = floorDivision(shifted, 146_097).0
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// Appends `value` in decimal, zero-padded to `width` digits (higher digits are dropped).
    static func appendDigits(_ value: Int64, width: Int, to bytes: inout [UInt8]) {
        var scale: Int64 = 1
        for _ in 1..<width { scale *= 10 }
        while scale > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(value / scale % 10))
            scale /= 10
        }
    }
}
