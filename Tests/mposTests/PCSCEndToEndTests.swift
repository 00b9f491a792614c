import Foundation
import MPOSTestSupport
import Testing

/// Payments on the real smart-card stack: `mpos sale` and `mpos refund` against `mpos reader
/// pcsc`, whose kernel reaches the card through pcscd and vsmartcard's vpcd driver, where
/// `mpos card emulate` is the card; `mpos gateway serve` is the host. Every part is a process.
@Suite(
    .serialized, .timeLimit(.minutes(3)),
    .enabled(if: LocalPCSC.missing == nil, "skipped: \(LocalPCSC.missing ?? "")"))
struct PCSCEndToEndTests {
    /// pcscd, a card in its first slot, the PC/SC reader and a gateway.
    final class Stack {
        let pcsc: LocalPCSC
        let card: Process
        let reader: Process
        let readerPort: Int
        let gateway: PaymentCommandTests.ServedGateway

        init(card id: String, cardOptions: [String] = [], pin: String = "1234") throws {
            pcsc = try LocalPCSC()
            card = Process()
            card.executableURL = try EMVDecodeBinaryTests.mposBinary()
            card.arguments =
                ["card", "emulate", "--card", id, "--vpcd", "127.0.0.1:\(pcsc.cardPort)"] + cardOptions
            let cardOut = Pipe()
            card.standardOutput = cardOut
            card.standardError = FileHandle.nullDevice
            try card.run()
            let inserted = PaymentCommandTests.ServedGateway.readLine(cardOut.fileHandleForReading) ?? ""
            reader = Process()
            reader.executableURL = try EMVDecodeBinaryTests.mposBinary()
            reader.arguments = [
                "reader", "pcsc", "--port", "0", "--discovery-port", "0", "--reader", pcsc.readerName,
                "--pin", pin,
            ]
            reader.environment = ProcessInfo.processInfo.environment.merging(pcsc.environment) { $1 }
            let readerOut = Pipe()
            reader.standardOutput = readerOut
            reader.standardError = FileHandle.nullDevice
            try reader.run()
            let listening = PaymentCommandTests.ServedGateway.readLine(readerOut.fileHandleForReading) ?? ""
            gateway = try PaymentCommandTests.ServedGateway()
            guard inserted.hasPrefix("card \(id) in "), listening.hasPrefix("listening on 127.0.0.1:"),
                let port = Int(listening.dropFirst("listening on 127.0.0.1:".count))
            else {
                throw LocalPCSC.Unavailable(
                    description: "card said '\(inserted)', reader said '\(listening)'")
            }
            readerPort = port
        }

        /// `mpos ARGUMENTS --reader … --json` with the gateway's credentials.
        func run(_ arguments: [String]) throws -> (status: Int32, json: [String: Any], err: String) {
            let run = try EMVDecodeBinaryTests.run(
                arguments + ["--reader", "127.0.0.1:\(readerPort)", "--json"] + gateway.arguments)
            let json = (try? JSONSerialization.jsonObject(with: Data(run.out.utf8))) as? [String: Any] ?? [:]
            #expect(!run.out.contains("4111111111111111") && !run.err.contains("4111111111111111"))
            return (run.status, json, run.err)
        }

        func stop() {
            for process in [reader, card] where process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
            _ = gateway.stop()
            pcsc.stop()
        }
    }

    @Test func aSaleThroughPCSCIsApprovedWithTheCardsVerifiedCryptogram() throws {
        let stack = try Stack(card: "visa-credit")
        defer { stack.stop() }
        let sale = try stack.run(["sale", "--amount", "12.34"])
        #expect(sale.status == 0, "\(sale.err)")
        #expect(sale.json["status"] as? String == "approved")
        #expect(sale.json["maskedPAN"] as? String == "411111******1111")
        #expect(sale.json["responseCode"] as? String == "00")
    }

    @Test func aCardPresentRefundThroughPCSCIsApproved() throws {
        let stack = try Stack(card: "visa-debit")
        defer { stack.stop() }
        let refund = try stack.run(["refund", "--amount", "7.50"])
        #expect(refund.status == 0, "\(refund.err)")
        #expect(refund.json["status"] as? String == "approved")
        #expect(refund.json["kind"] as? String == "refund")
    }

    @Test func wrongPINsOnTheKeypadExhaustTheCardsTriesAndTheIssuerDeclines() throws {
        let stack = try Stack(card: "pin-required", pin: "0000")
        defer { stack.stop() }
        let sale = try stack.run(["sale", "--amount", "15.00"])
        #expect(sale.status == 2, "\(sale.err)")
        #expect(sale.json["status"] as? String == "declined")
        #expect(sale.json["responseCode"] as? String == "75")
    }

    @Test func aT0CardIsReadThroughGetResponseAndApproved() throws {
        let stack = try Stack(card: "visa-debit", cardOptions: ["--t0"])
        defer { stack.stop() }
        let sale = try stack.run(["sale", "--amount", "12.35"])
        #expect(sale.status == 0, "\(sale.err)")
        #expect(sale.json["status"] as? String == "approved")
    }

    @Test func aCardPulledOutWhileReadingChargesNothing() throws {
        // SELECT PPSE, SELECT AID, GET PROCESSING OPTIONS, then gone during the READ RECORDs.
        let stack = try Stack(card: "signature", cardOptions: ["--pull-after", "4"])
        defer { stack.stop() }
        let sale = try stack.run(["sale", "--amount", "12.36"])
        #expect(sale.status == 1, "\(sale.json)")
        #expect(sale.json["status"] as? String == "failed")
        #expect((sale.json["error"] as? [String: Any])?["code"] as? Int == 3202)
        #expect(sale.json["transactionID"] is NSNull, "no authorization reached the gateway")
    }

    @Test func aCardPulledOutAfterTheHostApprovedIsReversed() throws {
        // Gone after its first GENERATE AC: the host approves, the card cannot confirm it.
        let stack = try Stack(card: "signature", cardOptions: ["--pull-after", "6"])
        defer { stack.stop() }
        let sale = try stack.run(["sale", "--amount", "12.38"])
        #expect(sale.status == 2, "\(sale.err)")
        #expect(sale.json["status"] as? String == "declined")
        #expect(sale.json["responseCode"] as? String == "00")
        #expect(sale.json["reversed"] as? Bool == true)
        #expect(sale.json["approvedAmount"] as? Int == 0)
    }

    @Test func aSlowCardIsApprovedAfterTakingItsTime() throws {
        let stack = try Stack(card: "signature", cardOptions: ["--slow-ms", "150"])
        defer { stack.stop() }
        let started = ContinuousClock.now
        let sale = try stack.run(["sale", "--amount", "12.37"])
        #expect(sale.status == 0, "\(sale.err)")
        #expect(sale.json["status"] as? String == "approved")
        // Eight APDUs at least (selection, GPO, two records, two GENERATE ACs, EXTERNAL
        // AUTHENTICATE), each 150 ms.
        #expect(ContinuousClock.now - started >= .milliseconds(8 * 150))
    }
}
