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

    @Test func withKeepServingTheDemoEndsWithALinkThatOpensItsDashboard() throws {
        let process = Process()
        process.executableURL = try EMVDecodeBinaryTests.mposBinary()
        process.arguments = ["demo", "--delay-ms", "0", "--keep-serving"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
        }
        var link: String?
        var printed: [String] = []
        while link == nil, let line = PaymentCommandTests.ServedGateway.readLine(out.fileHandleForReading) {
            printed.append(line)
            if line.hasPrefix("see it in your browser: ") { link = String(line.dropFirst("see it in your browser: ".count)) }
        }
        let url = try #require(link, "no link in \(printed)")
        #expect(url.hasPrefix("http://127.0.0.1:") && url.contains("/dashboard/login/link?token="))

        // The link logs a browser in: a session cookie and the way to the transactions, which
        // list the demo's sale and its refund.
        let opened = try Self.curl(["-s", "-i", url])
        #expect(opened.lowercased().contains("location: /dashboard/transactions"), "\(opened)")
        let cookie = try #require(
            opened.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie: ") }
                .flatMap { $0.dropFirst("set-cookie: ".count).split(separator: ";").first })
        let origin = url.components(separatedBy: "/dashboard/")[0]
        let page = try Self.curl(["-s", "-H", "Cookie: \(cookie)", origin + "/dashboard/transactions"])
        #expect(page.contains("12.34 EUR") && page.contains("refund"), "\(page.prefix(400))")
        // Used once, the link opens nothing more: no session cookie, no way to the transactions.
        let again = try Self.curl(["-s", "-i", url])
        #expect(!again.lowercased().contains("set-cookie: \(cookie.split(separator: "=")[0].lowercased())=ds_"))
        #expect(!again.lowercased().contains("location: /dashboard/transactions"), "\(again.prefix(300))")
        #expect(again.hasPrefix("HTTP/1.1 401"), "\(again.prefix(300))")

        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let rest = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(rest.contains("done"))
    }

    /// What curl printed for `arguments` (curl is installed by .ci/run).
    static func curl(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["--max-time", "20"] + arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
