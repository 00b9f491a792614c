import Foundation
import Testing

/// `mpos sale --tip-percentages/--tip-amount/--custom-tip` against `mpos reader emulate --tip`:
/// the emulated cardholder's choice comes back as the sale's tip.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct TipEntryCommandTests {
    @Test func theEmulatedCardholderPicks15PercentOverTCP() throws {
        let emulator = try ReaderCommandTests.Emulator.start(["--tip", "15%"])
        let run = try PaymentCommandTests.run([
            "sale", "--reader", "127.0.0.1:\(emulator.port)", "--amount", "42.00",
            "--tip-percentages", "10,15,20", "--custom-tip", "--json",
        ])
        #expect(run.status == 0, "stderr: \(run.err)")
        let json = try PaymentCommandTests.object(run.out)
        #expect(json["status"] as? String == "approved")
        #expect(json["approvedAmount"] as? Int == 42_00 && json["tipAmount"] as? Int == 6_30)
        #expect(json["tipPercentage"] as? Int == 15 && json["totalAmount"] as? Int == 48_30)
        // Without options the same cardholder is never asked.
        let plain = try PaymentCommandTests.run(["sale", "--reader", "127.0.0.1:\(emulator.port)", "--amount", "42.01", "--json"])
        let plainJSON = try PaymentCommandTests.object(plain.out)
        #expect(plainJSON["tipAmount"] as? Int == 0 && plainJSON["tipPercentage"] is NSNull)
        #expect(emulator.stop() == 0)
    }

    @Test func badTipArgumentsAreRefusedWithTheirRule() throws {
        let emulate = try PaymentCommandTests.run(["reader", "emulate", "--port", "0", "--tip", "150%"])
        #expect(emulate.status != 0 && emulate.err.contains("1% to 100%"))
        let sale = try PaymentCommandTests.run(["sale", "--amount", "10.00", "--tip-percentages", "10,120"])
        #expect(sale.status == 1 && sale.err.contains("1 to 100"), "stderr: \(sale.err)")
        let words = try PaymentCommandTests.run(["sale", "--amount", "10.00", "--tip-percentages", "ten"])
        #expect(words.status != 0 && words.err.contains("not a whole percentage"))
    }

    /// `--account-type` (Heft's EFT_ACCOUNT_TYPE_SELECTION): the emulated cardholder's account
    /// comes back in the sale's answer.
    @Test func theEmulatedCardholderPicksTheSavingsAccount() throws {
        let emulator = try ReaderCommandTests.Emulator.start(["--account-type", "savings"])
        let run = try PaymentCommandTests.run(["sale", "--reader", "127.0.0.1:\(emulator.port)", "--amount", "12.64", "--json"])
        #expect(run.status == 0, "stderr: \(run.err)")
        let json = try PaymentCommandTests.object(run.out)
        #expect(json["status"] as? String == "approved" && json["accountType"] as? String == "savings")
        #expect(emulator.stop() == 0)
        let bad = try PaymentCommandTests.run(["reader", "emulate", "--port", "0", "--account-type", "current"])
        #expect(bad.status != 0 && bad.err.contains("default, savings, cheque or credit"))
    }
}
