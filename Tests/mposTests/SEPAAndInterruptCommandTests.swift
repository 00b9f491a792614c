import Foundation
import Testing

/// `mpos sepa`, and Ctrl-C during a card operation, through the real binary.
@Suite(.serialized, .timeLimit(.minutes(2))) struct SEPAAndInterruptCommandTests {
    @Test func aSEPADirectDebitExitsZeroWithItsKind() throws {
        let run = try PaymentCommandTests.run([
            "sepa", "--amount", "19.99", "--mandate", "MANDATE-42", "--json",
        ])
        #expect(run.status == 0, "stderr: \(run.err)")
        let json = try PaymentCommandTests.object(run.out)
        #expect(json["status"] as? String == "approved" && json["kind"] as? String == "sepa")
        #expect(json["approvedAmount"] as? Int == 1999 && json["currency"] as? String == "EUR")
        PaymentCommandTests.expectNoPAN(run)
        let human = try PaymentCommandTests.run(["sepa", "--amount", "5.00"])
        #expect(human.status == 0 && human.out.contains("APPROVED  sepa  5.00 EUR"))
    }

    @Test func aSEPADebitRefusesAnotherCurrencyAndALongMandate() throws {
        let usd = try PaymentCommandTests.run(["sepa", "--amount", "5.00", "--currency", "USD"])
        #expect(usd.status == 1 && usd.err.contains("in EUR, not USD"))
        let mandate = try PaymentCommandTests.run([
            "sepa", "--amount", "5.00", "--mandate", String(repeating: "M", count: 36),
        ])
        #expect(mandate.status == 1 && mandate.err.contains("mandate reference"))
        let zero = try PaymentCommandTests.run(["sepa", "--amount", "0.00"])
        #expect(zero.status == 1 && zero.err.contains("greater than zero"))
    }

    /// Runs a card command that waits for the card (80.30: the reader waits 30 s), presses
    /// Ctrl-C once the reader's prompt shows, and returns the exit status and output.
    static func interrupted(_ arguments: [String]) throws -> (status: Int32, out: String) {
        let (process, out, lines) = try startedUntilTheCardPrompt(arguments)
        process.interrupt()  // SIGINT, as Ctrl-C
        let rest = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, (lines + [rest]).joined(separator: "\n"))
    }

    /// Starts `mpos` with `arguments` (and `environment` added to the test's) and reads its
    /// standard output until the reader asks for the card; returns the running process, its
    /// output pipe and the lines read.
    static func startedUntilTheCardPrompt(
        _ arguments: [String], environment: [String: String] = [:]
    ) throws -> (Process, Pipe, [String]) {
        let process = Process()
        process.executableURL = try EMVDecodeBinaryTests.mposBinary()
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var lines: [String] = []
        while let line = PaymentCommandTests.ServedGateway.readLine(out.fileHandleForReading) {
            lines.append(line)
            if line.contains("reader: Insert, tap or swipe card") { break }
        }
        return (process, out, lines)
    }

    @Test func ctrlCWhileTheReaderWaitsCancelsAndLeavesNoApproval() throws {
        let gateway = try PaymentCommandTests.ServedGateway()
        let emulator = try ReaderCommandTests.Emulator.start()
        defer {
            _ = emulator.stop()
            _ = gateway.stop()
        }
        let remote = gateway.arguments + ["--reader", "127.0.0.1:\(emulator.port)"]
        for command in [["sale"], ["authorize"], ["refund", "--currency", "EUR"]] {
            let run = try Self.interrupted(command + ["--amount", "80.30"] + remote)
            #expect(run.status == 3, "\(command[0]): \(run.out)")
            #expect(run.out.contains("CANCELLED  "), "\(command[0]): \(run.out)")
        }
        let list = try PaymentCommandTests.run(
            ["transactions", "--status", "all", "--json"] + gateway.arguments)
        #expect(list.status == 0, "stderr: \(list.err)")
        let items = try #require(try PaymentCommandTests.object(list.out)["items"] as? [[String: Any]])
        #expect(!items.contains { $0["status"] as? String == "approved" }, "\(items)")
        // The emulator takes payments again afterwards.
        let sale = try PaymentCommandTests.run(["sale", "--amount", "1.00", "--json"] + remote)
        #expect(sale.status == 0, "stderr: \(sale.err)")
    }
}
