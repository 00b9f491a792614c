import Foundation
import Testing

@testable import SandboxCards

/// The year and month the issuer checks expiry dates against are worked out without a
/// calendar; they agree with Foundation's UTC Gregorian calendar, month boundaries included.
@Suite(.timeLimit(.minutes(2)))
struct IssuerDateTests {
    @Test(arguments: [
        -86_400.5, 0, 951_782_399.9995, 951_782_400, 1_709_251_199.999, 1_709_251_200, 1_764_028_800 - 0.001,
        1_767_225_599.9999, 1_767_225_600, 4_102_444_800, 2_000_000_000.25,
    ])
    func agreesWithTheUTCCalendar(secondsSince1970: Double) {
        let date = Date(timeIntervalSince1970: secondsSince1970)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month], from: date)
        let worked = SandboxIssuer.utcYearMonth(of: date)
        #expect(worked.year == parts.year && worked.month == parts.month, "\(date)")
    }
}
