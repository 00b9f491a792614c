import Foundation
import Testing

/// A device check refusing `mpos sale`, with real processes: the gateway's clock runs ten
/// minutes ahead of the machine's (`mpos gateway serve --clock-offset 600`).
@Suite(.serialized, .timeLimit(.minutes(2))) struct DeviceChecksCommandTests {
    @Test func aSaleOnADeviceWhoseClockIsOffTheGatewaysIsOneLineAndExitOne() throws {
        let gateway = try PaymentCommandTests.ServedGateway(["--clock-offset", "600"])
        defer {
            gateway.process.terminate()
            gateway.process.waitUntilExit()
            try? FileManager.default.removeItem(at: gateway.directory)
        }
        let journal = gateway.directory.appendingPathComponent("journal.sqlite").path
        let sale = try EMVDecodeBinaryTests.run([
            "sale", "--amount", "5.00", "--gateway", gateway.url, "--user", gateway.user, "--password",
            gateway.password, "--journal", journal,
        ])
        #expect(sale.status == 1, "\(sale.out) \(sale.err)")
        #expect(sale.out.isEmpty, "\(sale.out)")
        let lines = sale.err.split(separator: "\n")
        #expect(lines.count == 1, "\(sale.err)")
        #expect(lines.first?.contains("LOCAL_TIME_TAMPERING: the device's clock is") == true, "\(sale.err)")
        #expect(lines.first?.contains("behind the gateway's") == true, "\(sale.err)")

        // Nothing reached the gateway: its ledger holds no sale.
        let listed = try EMVDecodeBinaryTests.run([
            "transactions", "--json", "--gateway", gateway.url, "--user", gateway.user, "--password",
            gateway.password, "--journal", journal,
        ])
        #expect(listed.status == 0, "\(listed.err)")
        let items = try #require(try PaymentCommandTests.object(listed.out)["items"] as? [[String: Any]])
        #expect(items.isEmpty)
    }
}
