/// A date in EMV's n 6 `YYMMDD` form, as in Transaction Date (`9A`), Application
/// Expiration Date (`5F24`) and Application Effective Date (`5F25`).
///
/// Two-digit years follow EMV's rule: `00`-`49` are 2000-2049 and `50`-`99` are 1950-1999.
public struct EMVDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The four-digit year.
    public let year: Int
    /// The month, 1-12.
    public let month: Int
    /// The day of the month, 1-31.
    public let day: Int

    /// Decodes a `YYMMDD` value; throws unless it is 3 bytes of digits forming a real date.
    public init(_ value: some Collection<UInt8>) throws(EMVValueError) {
        let bytes = Array(value)
        try checkLength(bytes, .fixed(3))
        let yy = try BCD.twoDigits(bytes[0], at: 0)
        let mm = try BCD.twoDigits(bytes[1], at: 1)
        let dd = try BCD.twoDigits(bytes[2], at: 2)
        let year = yy < 50 ? 2000 + yy : 1900 + yy
        guard (1...12).contains(mm) else { throw .invalidValue("month \(mm) is not 1-12") }
        let length = EMVDate.daysIn(month: mm, year: year)
        guard (1...length).contains(dd) else {
            throw .invalidValue("day \(dd) is not in month \(mm) of \(year)")
        }
        self.year = year
        self.month = mm
        self.day = dd
    }

    /// ISO 8601 form, `2024-03-15`.
    public var description: String {
        "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
    }

    /// The date in words, `15 March 2024`.
    public var spelledOut: String { "\(day) \(EMVDate.monthNames[month - 1]) \(year)" }

    /// The date as a sentence: `15 March 2024 (2024-03-15)`.
    public var statements: [String] { ["\(spelledOut) (\(description))"] }

    /// Orders dates chronologically.
    public static func < (lhs: EMVDate, rhs: EMVDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    private static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September",
        "October", "November", "December",
    ]

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
