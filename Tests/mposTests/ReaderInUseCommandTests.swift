import Foundation
import Testing

/// One `mpos reader emulate` and two terminals: the reader serves the first, and the second
/// `mpos sale` is refused at pairing with one line naming the holder, charging nothing.
@Suite(.timeLimit(.minutes(2)))
struct ReaderInUseCommandTests {
    @Test func aSecondSaleOnAHeldReaderExitsOneNamingTheHolderAndTheFirstIsApproved() throws {
        let gateway = try PaymentCommandTests.ServedGateway()
        // The cardholder takes 12 s to tap the card (no PIN below the contactless limit): the first
        // sale holds the reader that long.
        let emulator = try ReaderCommandTests.Emulator.start(["--delay-ms", "12000", "--entry", "contactless"])
        defer {
            _ = emulator.stop()
            _ = gateway.stop()
        }
        // Two terminals, each with its own journal (commands on one journal wait for each other,
        // and these two must meet at the reader).
        let remote = [
            "--gateway", gateway.url, "--user", gateway.user, "--password-file", gateway.passwordFile,
            "--reader", "127.0.0.1:\(emulator.port)",
        ]
        func ownData(_ name: String) -> [String: String] {
            ["XDG_DATA_HOME": gateway.directory.appendingPathComponent(name).path]
        }

        let (first, out, lines) = try SEPAAndInterruptCommandTests.startedUntilTheCardPrompt(
            ["sale", "--amount", "12.34"] + remote, environment: ownData("first"))

        let second = try EMVDecodeBinaryTests.run(
            ["sale", "--amount", "1.00", "--json"] + remote, environment: ownData("second"))
        #expect(second.status == 1, "stdout: \(second.out) stderr: \(second.err)")
        let message = second.err.split(separator: "\n")
        #expect(message.count == 1, "\(second.err)")
        let expected = "cannot use the reader at 127.0.0.1:\(emulator.port): The reader is in use by another terminal (127.0.0.1:"
        #expect(second.err.contains(expected), "\(second.err)")
        let info = try EMVDecodeBinaryTests.run(["reader", "info", "--reader", "127.0.0.1:\(emulator.port)"])
        #expect(info.status == 1 && info.err.contains(expected), "\(info.err)")

        let rest = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        first.waitUntilExit()
        #expect(first.terminationStatus == 0, "\((lines + [rest]).joined(separator: "\n"))")
        #expect(rest.contains("APPROVED  sale  12.34 EUR"), "\(rest)")

        // Only the first sale reached the gateway.
        let list = try PaymentCommandTests.run(["transactions", "--status", "all", "--json"] + gateway.arguments)
        #expect(list.status == 0, "stderr: \(list.err)")
        let items = try #require(try PaymentCommandTests.object(list.out)["items"] as? [[String: Any]])
        #expect(items.count == 1, "\(items)")
        #expect(items.first?["approvedAmount"] as? Int == 1234 && items.first?["status"] as? String == "approved")
    }
}
