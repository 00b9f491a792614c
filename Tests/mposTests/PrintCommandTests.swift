import Foundation
import MPOSKit
import MPOSTestSupport
import Testing

/// `mpos sale --printer`, `mpos print` and `mpos drawer open` as a user runs them: real
/// `mpos gateway serve` and `mpos printer emulate` processes on port 0.
@Suite(.serialized, .timeLimit(.minutes(3))) struct PrintCommandTests {
    typealias Printer = PrinterEmulateCommandTests.Printer

    /// Runs the binary on a thread of its own: waiting for a process must not hold one of the
    /// few threads every async test in this process shares.
    static func run(_ arguments: [String]) async throws -> (status: Int32, out: String, err: String) {
        try await offPool { try EMVDecodeBinaryTests.run(arguments) }
    }

    /// `printer.lines(through:)`, read on a thread of its own.
    static func lines(_ printer: Printer, through prefix: String) async throws -> [String] {
        try await offPool { printer.lines(through: prefix) }
    }

    static func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }

    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("mpos-print-\(UUID().uuidString)")
    }

    /// The receipt the SDK renders for `id`, from the gateway's receipt data.
    static func expectedText(_ id: String, copy: ReceiptCopy, gateway: PaymentCommandTests.ServedGateway)
        async throws
        -> [String]
    {
        let terminal = try PaymentTerminal(
            environment: try #require(URL(string: gateway.url)),
            credentials: .login(user: gateway.user, password: gateway.password),
            journalPath: gateway.directory.appendingPathComponent("check.sqlite").path)
        try await terminal.login()
        let receipt = try await terminal.receipts.receipt(
            transactionID: try #require(TransactionID(rawValue: id)))
        return receipt.text(copy, width: 48).components(separatedBy: "\n")
    }

    @Test(.enabled(if: Zbar.path != nil, "zbarimg (zbar-tools) is not installed"))
    func aSalePrintsItsReceiptAndPrintPrintsTheGatewaysReceiptAsItsText() async throws {
        let gateway = try PaymentCommandTests.ServedGateway()
        defer { _ = gateway.stop() }
        let out = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let printer = try Printer.start(["--out", out.path])
        defer { _ = printer.stop() }
        let address = "127.0.0.1:\(printer.port)"

        let sale = try await Self.run(
            [
                "sale", "--amount", "12.34", "--item", "Cappuccino:2:3.90:7", "--item",
                "Cheesecake:1:4.54:19",
                "--json", "--printer", address,
            ] + gateway.arguments)
        #expect(sale.status == 0, "stderr: \(sale.err)")
        let id = try #require(try PaymentCommandTests.object(sale.out)["transactionID"] as? String)
        #expect(try await Self.lines(printer, through: "job-0001:").last?.hasPrefix("job-0001: ") == true)
        // The QR code on the printed page carries the transaction id, as zbar reads it.
        #expect(try Zbar.decodeQR(out.appendingPathComponent("job-0001.pbm")) == id)

        for (copy, job) in [(ReceiptCopy.merchant, "job-0002"), (.customer, "job-0003")] {
            let print = try await Self.run(
                ["print", "--transaction", id, "--printer", address, "--copy", copy.rawValue]
                    + gateway.arguments)
            #expect(print.status == 0, "stderr: \(print.err)")
            #expect(print.out == "printed the \(copy.rawValue) copy of \(id)\n")
            _ = try await Self.lines(printer, through: "\(job):")
            let text = try String(contentsOf: out.appendingPathComponent(job + ".txt"), encoding: .utf8)
            let expected = try await Self.expectedText(id, copy: copy, gateway: gateway)
            #expect(text.components(separatedBy: "\n").dropLast() == expected[...])
            #expect(text.contains("Tax 7 %") && text.contains("Tax 19 %"))
        }
    }

    @Test(arguments: [
        ("--paper-out", "offline, paper out", "MPOSError 3255"),
        ("--cover-open", "offline, cover open", "MPOSError 3254"),
    ])
    func aPrinterThatCannotPrintFailsTheCommandButNotThePayment(flag: String, condition: String, code: String)
        async throws
    {
        let gateway = try PaymentCommandTests.ServedGateway()
        defer { _ = gateway.stop() }
        let printer = try Printer.start([flag])
        defer { _ = printer.stop() }
        let address = "127.0.0.1:\(printer.port)"

        let sale = try await Self.run(
            ["sale", "--amount", "5.00", "--json", "--printer", address] + gateway.arguments)
        #expect(sale.status == 1)
        #expect(sale.err == "printer: \(condition) (\(code))\n", "\(sale.err)")
        let json = try PaymentCommandTests.object(sale.out)
        #expect(json["status"] as? String == "approved")
        let id = try #require(json["transactionID"] as? String)

        let print = try await Self.run(
            ["print", "--transaction", id, "--printer", address] + gateway.arguments)
        #expect(print.status == 1)
        #expect(print.err == "Error: printer: \(condition) (\(code))\n", "\(print.err)")

        // The payment stands: approved at the gateway, and the journal holds nothing open (the
        // next run on it reports no attempt to finish).
        let approved = try await Self.run(["transactions", "--status", "approved", "--json"] + gateway.arguments)
        #expect(approved.status == 0 && approved.out.contains(id) && approved.err.isEmpty, "\(approved.err)")
    }

    @Test func theDrawerOpensOnTheChosenPinAndBadArgumentsExitOne() async throws {
        let printer = try Printer.start([])
        defer { _ = printer.stop() }
        let open = try await Self.run([
            "drawer", "open", "--printer", "127.0.0.1:\(printer.port)", "--pin", "5",
        ])
        #expect(open.status == 0, "stderr: \(open.err)")
        #expect(open.out == "drawer kicked on pin 5; drawer open\n")
        #expect(
            try await Self.lines(printer, through: "drawer kick").last
                == "drawer kick on pin 5 (50 ms on, 500 ms off)")
        let pin = try await Self.run([
            "drawer", "open", "--printer", "127.0.0.1:\(printer.port)", "--pin", "3",
        ])
        #expect(pin.status == 1 && pin.err.contains("--pin must be 2 or 5"))
        let address = try await Self.run(["print", "--transaction", "txn_1", "--printer", "127.0.0.1:0"])
        #expect(address.status == 1 && address.err.contains("--printer must be HOST:PORT"), "\(address.err)")
    }

    @Test func aPrinterThatDoesNotAnswerIsNamedByItsAddress() async throws {
        // A port a printer listened on a moment ago: nobody answers there now.
        let printer = try Printer.start([])
        let port = printer.port
        _ = printer.stop()
        let open = try await Self.run(["drawer", "open", "--printer", "127.0.0.1:\(port)"])
        #expect(open.status == 1)
        #expect(
            open.err.contains("printer: No printer answers at 127.0.0.1:\(port) (connection refused or timed out)."),
            "\(open.err)")
        #expect(!open.err.contains("reader"))
    }
}
