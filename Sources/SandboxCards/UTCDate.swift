import Foundation

/// A date's UTC calendar fields, to the millisecond, found by arithmetic.
///
/// `Calendar` in UTC gives the same fields (tests compare the two over many dates), but it
/// goes through ICU, which costs more than the rest of the sandbox's per-payment date work
/// together: the issuer checks expiry on every authorization, the emulated kernel stamps
/// 9A on every card transaction and the gateway writes timestamps into every ledger row.
package struct UTCDate: Equatable, Sendable {
    package var year, month, day, hour, minute, second, millisecond: Int64

    private static let millisecondsPerDay: Int64 = 86_400_000

    /// The fields of `date`, its milliseconds rounded to the nearest (halves up) or cut off.
    package init(_ date: Date, roundingToNearestMillisecond: Bool = false) {
        // The same sum as Foundation hands to ICU: seconds since 1970, in milliseconds.
        let exact = (date.timeIntervalSinceReferenceDate + Date.timeIntervalBetween1970AndReferenceDate) * 1000
        let milliseconds = Int64((roundingToNearestMillisecond ? exact + 0.5 : exact).rounded(.down))
        let (days, inDay) = Self.floorDivision(milliseconds, Self.millisecondsPerDay)
        (year, month, day) = Self.civilDate(daysSince1970: days)
        hour = inDay / 3_600_000
        minute = inDay / 60_000 % 60
        second = inDay / 1000 % 60
        millisecond = inDay % 1000
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
}
