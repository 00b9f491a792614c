import Foundation
import Testing

@testable import ReaderSimulator

/// The transaction date (9A) and the year and month the card's expiry is checked against are
/// read without a calendar: they agree with Foundation's UTC Gregorian calendar.
@Suite(.timeLimit(.minutes(2)))
struct KernelTransactionDateTests {
    @Test(arguments: [
        -86_400.5, 0, 951_782_399.9995, 951_782_400, 1_709_251_199.999, 1_709_251_200, 1_764_028_800 - 0.001,
        4_102_444_800, 2_000_000_000.25,
    ])
    func agreesWithTheUTCCalendar(secondsSince1970: Double) {
        let date = Date(timeIntervalSince1970: secondsSince1970)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let transaction = KernelTransaction(amount: 100, date: date)
        #expect(transaction.yearMonth.year == parts.year && transaction.yearMonth.month == parts.month)
        let bcd = [parts.year! % 100, parts.month!, parts.day!].map { UInt8(($0 / 10) << 4 | ($0 % 10)) }
        #expect(transaction.dateBCD == bcd, "\(date)")
    }
}
