import Foundation
import Testing

/// `mpos demo` as a user runs it: an embedded gateway and reader, a sale, a refund, reports.
@Suite(.timeLimit(.minutes(2)))
struct DemoCommandTests {
    /// Every sandbox card number (public test data), to prove none reaches the output.
    static let testPANs = [
        "4111111111111111", "4000056655665556", "2223003122003222", "5413330089010038", "378282246310005",
        "6011111111111117", "3530111333300000", "6200000000000005", "4012888888881881", "5555555555554444",
        "4000000000000069", "4000000000000002", "4761739001010010", "5105105105105100", "4761739001010036",
        "5200828282828210", "4761739001010119", "4761739001010077",
    ]

    @Test func demoApprovesPrintsAReceiptAndExitsZero() throws {
        let run = try EMVDecodeBinaryTests.run(["demo", "--delay-ms", "0"])
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(run.out.contains("APPROVED"))
        #expect(run.out.contains("PIN VERIFIED"))
        // The order's lines and their tax are on the receipt.
        #expect(run.out.contains("2 x Cappuccino") && run.out.contains("Tax 7 %") && run.out.contains("Tax 19 %"))
        #expect(run.out.contains("REFUND"))
        for pan in Self.testPANs { #expect(!run.out.contains(pan) && !run.err.contains(pan)) }
    }
}
