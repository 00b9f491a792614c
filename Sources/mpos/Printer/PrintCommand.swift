import ArgumentParser
import Foundation
import MPOSCore
import MPOSKit
import ReaderLinkTCP

/// `--printer HOST[:PORT]`: a network receipt printer (port 9100 when none is given).
enum PrinterAddress {
    static func parse(_ text: String) throws -> (host: String, port: Int) {
        guard let colon = text.lastIndex(of: ":") else {
            guard !text.isEmpty else { throw failure }
            return (text, ReceiptPrinter.defaultPort)
        }
        guard let port = Int(text[text.index(after: colon)...]), (1...65535).contains(port),
            colon != text.startIndex
        else { throw failure }
        return (String(text[..<colon]), port)
    }

    /// The printer at `text`, for a job laid out in `columns` (32 for 58 mm paper, 48 for 80 mm).
    static func printer(_ text: String, columns: Int = 48) throws -> ReceiptPrinter {
        let (host, port) = try parse(text)
        let profile: PrinterProfile = columns == 32 ? .paper58mm : .paper80mm
        return ReceiptPrinter(profile: profile) {
            do {
                return TransportPrinterConnection(
                    try await TCPTransport.connect(host: host, port: port, connectTimeout: .seconds(5)))
            } catch {
                // The transport speaks of reader links; the user asked for a printer.
                throw MPOSError.printerUnreachable.withMessage(
                    "No printer answers at \(host):\(port) (connection refused or timed out).")
            }
        }
    }

    /// Prints `copy` of `receipt`; nil when it printed, else the one line the command exits with.
    static func print(_ receipt: PaymentReceipt, copy: ReceiptCopy, on printer: ReceiptPrinter) async
        -> String?
    {
        let report = await printer.print(receipt, copy: copy).result()
        guard let error = report.error else { return nil }
        return failureLine(error, status: report.status)
    }

    /// `printer: cover open (MPOSError 3254)`: the printer's status, or what else went wrong.
    static func failureLine(_ error: MPOSError, status: PrinterStatus?) -> String {
        let what = status.flatMap { $0.isReady ? nil : $0.summary } ?? error.message
        return "printer: \(what) (MPOSError \(error.code))"
    }

    static let failure = ValidationError("--printer must be HOST:PORT, e.g. 127.0.0.1:9100")
}

/// `--printer` and `--columns` of the commands that print.
struct PrinterOptions: ParsableArguments {
    @Option(help: "The receipt printer, HOST:PORT (raw ESC/POS over TCP; the port defaults to 9100).")
    var printer: String?

    @Option(help: "Characters per line of the printer: 32 (58 mm paper) or 48 (80 mm).")
    var columns: Int = 48

    func validate() throws {
        guard columns == 32 || columns == 48 else {
            throw ValidationError("--columns must be 32 or 48, not \(columns)")
        }
        if let printer { _ = try PrinterAddress.parse(printer) }
    }

    func receiptPrinter() throws -> ReceiptPrinter? {
        try printer.map { try PrinterAddress.printer($0, columns: columns) }
    }
}

/// `mpos print --transaction ID --printer HOST:PORT [--copy customer|merchant]`
struct PrintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "print",
        abstract: "Print a transaction's receipt on an ESC/POS printer.",
        discussion: """
            Fetches the receipt of --transaction from --gateway and prints it on --printer, reading \
            the printer's status (DLE EOT) before and after the job. Exit codes: 0 printed, 1 not \
            printed (the printer's condition, such as 'paper out' or 'cover open', in one line on \
            standard error) or any other error. See docs/printing.md.
            """)

    @Option(help: "The transaction whose receipt to print.")
    var transaction: String

    @Option(help: "Which copy: customer or merchant.")
    var copy: String = "customer"

    @OptionGroup var printerOptions: PrinterOptions

    @OptionGroup var options: TerminalOptions

    func run() async throws {
        guard let copy = ReceiptCopy(rawValue: copy) else {
            throw CLIFailure("invalid --copy '\(self.copy)': use customer or merchant")
        }
        guard let printer = try printerOptions.receiptPrinter() else {
            throw CLIFailure("--printer is required")
        }
        let id = try PaymentCommandHelp.transactionID(transaction)
        let failure = try await TerminalSession.with(options, needsReader: false, showEvents: false, paying: false) {
            terminal in
            let receipt: PaymentReceipt
            do { receipt = try await terminal.receipts.receipt(transactionID: id) } catch {
                throw CLIFailure((error as? MPOSError)?.message ?? "\(error)")
            }
            return await PrinterAddress.print(receipt, copy: copy, on: printer)
        }
        if let failure { throw CLIFailure(failure) }
        CLIOutput.line("printed the \(copy.rawValue) copy of \(id.rawValue)")
    }
}

/// `mpos drawer open --printer HOST:PORT [--pin 2|5]`
struct DrawerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drawer", abstract: "Work the cash drawer on a receipt printer.",
        subcommands: [DrawerOpenCommand.self])
}

/// `mpos drawer open`
struct DrawerOpenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open the cash drawer connected to a receipt printer (ESC p).",
        discussion: "Exit codes: 0 opened, 1 not (the printer's condition in one line on standard error).")

    @Option(help: "The receipt printer, HOST:PORT (the port defaults to 9100).")
    var printer: String

    @Option(help: "The drawer kick-out connector pin: 2 or 5.")
    var pin: Int = 2

    func run() async throws {
        let drawerPin: EscPosEncoder.DrawerPin
        switch pin {
        case 2: drawerPin = .pin2
        case 5: drawerPin = .pin5
        default: throw CLIFailure("--pin must be 2 or 5, not \(pin)")
        }
        let receiptPrinter = try PrinterAddress.printer(printer)
        do {
            let status = try await receiptPrinter.openCashDrawer(pin: drawerPin)
            CLIOutput.line("drawer kicked on pin \(pin); drawer \(status.drawerOpen ? "open" : "closed")")
        } catch {
            throw CLIFailure(PrinterAddress.failureLine(error, status: nil))
        }
    }
}
