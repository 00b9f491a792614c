import ArgumentParser
import Foundation
import GatewayAPI
import MPOSCore
import MPOSKit

/// The `mpos` payment commands' shared discussion of where they run and how they exit.
enum PaymentCommandHelp {
    static let discussion = """
        Runs against --gateway URL (with --user and its password from --password-file, MPOS_PASSWORD \
        or a prompt, or with --client-token) and --reader \
        HOST:PORT (with --secret HEX); whichever is not given is embedded: a sandbox gateway on \
        a temporary database, a simulated reader on 127.0.0.1 presenting --card. The journal \
        (--journal) is locked while the command runs; what an earlier run on it left open is \
        finished first and reported on standard error, one line per attempt.

        Exit codes: 0 approved (or approved offline), 2 declined, 3 cancelled, 1 error (also an approved sale \
        whose --printer could not print its receipt: the printer's status in one line; and a device check \
        refusing the payment, its seed name first, such as LOCAL_TIME_TAMPERING: docs/device-checks.md). \
        --json prints the result as \
        one JSON object (amounts in minor units). Ctrl-C while the reader waits for the card \
        cancels the operation (exit 3); a second Ctrl-C quits at once.
        """

    /// Runs `operation` on a session, turning SDK errors into one-line failures, and reports
    /// the result (exit code by status). While a card operation (`needsReader`) runs, Ctrl-C
    /// asks the reader to cancel.
    static func run(
        _ options: TerminalOptions, needsReader: Bool, receipt: Bool, printer: ReceiptPrinter? = nil,
        offlineFallback: Bool = false, lan: NetworkedTerminalOptions? = nil,
        _ operation: (PaymentTerminal) async throws(MPOSError) -> PaymentResult
    ) async throws {
        let session: ((PaymentTerminal) async throws -> Void) async throws -> Void = { body in
            if let networked = lan?.networkedTerminal {
                try await NetworkedTerminalSession.with(options, networked, showEvents: !options.json, body)
            } else {
                try await TerminalSession.with(
                    options, needsReader: needsReader, showEvents: !options.json, offlineFallback: offlineFallback,
                    body)
            }
        }
        try await session { terminal in
            let result: PaymentResult
            do {
                let interrupts = needsReader ? cancelOnInterrupt(terminal) : nil
                defer { interrupts?.remove() }
                do { result = try await operation(terminal) } catch {
                    throw CLIFailure((error as? MPOSError)?.message ?? "\(error)")
                }
            }
            // An approval stands whether or not its receipt prints.
            var printFailure: String?
            if let printer, result.status == .approved {
                let paper = await terminal.receipts.receipt(for: result)
                printFailure = await PrinterAddress.print(paper, copy: .customer, on: printer)
            }
            // Shown while the journal is still locked: the next run then knows it was shown.
            try PaymentOutput.finish(result, json: options.json, receipt: receipt, printFailure: printFailure)
        }
    }

    /// Turns the first Ctrl-C into `terminal.cancel()`, saying on standard error what came
    /// of it.
    static func cancelOnInterrupt(_ terminal: PaymentTerminal) -> InterruptToCancel {
        InterruptToCancel {
            // Unstructured: a signal handler cannot await; the cancel runs beside the operation it cancels.
            Task {
                CLIOutput.error("cancelling (Ctrl-C again to quit at once)")
                do throws(MPOSError) {
                    if try await !terminal.cancel() {
                        CLIOutput.error("the reader cannot cancel at this step; Ctrl-C again to quit at once")
                    }
                } catch {
                    CLIOutput.error("\(error.message) Ctrl-C again to quit at once")
                }
            }
        }
    }

    /// The transaction id given with --transaction.
    static func transactionID(_ text: String) throws -> TransactionID {
        guard let id = TransactionID(rawValue: text) else {
            throw CLIFailure("invalid transaction id '\(text)'")
        }
        return id
    }
}

/// `--amount` and `--currency` of the commands that take a new payment.
struct MoneyOptions: ParsableArguments {
    @Option(help: "The amount in major units, e.g. 12.34.")
    var amount: String

    @Option(help: "The ISO 4217 currency code.")
    var currency = "EUR"

    /// Payment parameters for the amount, or a failure naming the bad argument.
    func parameters() throws -> PaymentParameters {
        let currency = try AmountArgument.currency(currency)
        return PaymentParameters(amount: try AmountArgument.minorUnits(amount, currency), currency: currency)
    }
}

/// `mpos sale --amount 12.34 [--currency EUR]`
struct SaleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sale", abstract: "Take a card payment and print the customer receipt.",
        discussion: PaymentCommandHelp.discussion + """


            Examples:
              mpos sale --amount 12.34 --currency EUR
              mpos sale --amount 10.00 --json          # the sandbox declines 10.00 (exit 2)
              mpos sale --amount 42.00 --tip-percentages 10,15,20 --custom-tip   # the reader asks for a tip
              mpos sale --amount 12.34 --printer 127.0.0.1:9100   # prints the customer copy (exit 1 if it cannot)
              mpos sale --amount 12.34 --item Cappuccino:2:3.90:7 --item Cheesecake:1:4.54:19 \
                --descriptor "Corner Cafe" --descriptor-suffix "Table 4"
            """)

    @OptionGroup var money: MoneyOptions

    @Option(help: "The merchant's reference for the customer or order.")
    var reference: String?

    @Flag(help: "Allow the tip to be set later with `mpos tip` (until the batch closes).")
    var tipAdjustable = false

    @OptionGroup var tips: TipOptionsArguments

    @Option(help: "The statement descriptor (1-22 characters, a letter, none of < > \" ').")
    var descriptor: String?

    @Option(help: "Details after the descriptor, shown as DESCRIPTOR* SUFFIX (22 characters in all).")
    var descriptorSuffix: String?

    @Option(
        name: .customLong("item"),
        help: ArgumentHelp(
            "A basket line, NAME:QUANTITY:PRICE[:TAX%] (price in major units, tax included); repeat for "
                + "more. The lines must add up to --amount; they print on the receipt with their tax.",
            valueName: "item"))
    var items: [String] = []

    @OptionGroup var printerOptions: PrinterOptions
    @Flag(
        help: ArgumentHelp(
            "When the gateway cannot be reached, let the card decide and store an approved sale "
                + "(exit 0, status approvedOffline); `mpos offline forward` forwards it. With the gateway "
                + "down from the start, an online login of the same user on this --journal within the "
                + "offline window (24 h by default) is needed."))
    var offlineAllowed = false

    @OptionGroup var options: TerminalOptions

    @OptionGroup var lan: NetworkedTerminalOptions

    func run() async throws {
        var parameters = try money.parameters()
        parameters.offlineAllowed = offlineAllowed
        parameters.customerReference = reference
        if tipAdjustable { parameters.captureMode = .tipAdjustment }
        parameters.tipOptions = try tips.options(currency: parameters.currency)
        parameters.statementDescriptor = descriptor
        parameters.statementDescriptorSuffix = descriptorSuffix
        if !items.isEmpty {
            let currency = parameters.currency
            parameters.basket = Basket(items: try items.map { try BasketArgument.item($0, currency: currency) })
        }
        let printer = try printerOptions.receiptPrinter()
        try await PaymentCommandHelp.run(
            options, needsReader: true, receipt: true, printer: printer, offlineFallback: offlineAllowed, lan: lan
        ) { terminal throws(MPOSError) in
            try await terminal.sale(parameters)
        }
    }
}

/// `mpos authorize --amount 50.00 [--pre]`
struct AuthorizeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "authorize",
        abstract: "Reserve an amount on a card, to capture later with `mpos capture`.",
        discussion: PaymentCommandHelp.discussion)

    @OptionGroup var money: MoneyOptions

    @Flag(help: "A pre-authorisation (an estimated amount, e.g. hotel or car hire).")
    var pre = false

    @OptionGroup var options: TerminalOptions

    func run() async throws {
        let parameters = try money.parameters()
        let pre = pre
        try await PaymentCommandHelp.run(options, needsReader: true, receipt: true) {
            terminal throws(MPOSError) in
            if pre { return try await terminal.preAuthorize(parameters) }
            return try await terminal.authorize(parameters)
        }
    }
}

/// `mpos refund --transaction ID [--amount X]`, or `mpos refund --amount X --currency C` to
/// credit the presented card.
struct RefundCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refund",
        abstract: "Refund a sale (all or part), or credit a presented card without one.",
        discussion: PaymentCommandHelp.discussion + """


            With --transaction the sale is refunded (what remains when --amount is absent; \
            --currency only says how to read --amount). Without it, --amount is credited to \
            the card presented on the reader.
            """)

    @Option(help: "The sale to refund.")
    var transaction: String?

    @Option(help: "The amount in major units; with --transaction, absent refunds what remains.")
    var amount: String?

    @Option(help: "The ISO 4217 currency code.")
    var currency = "EUR"

    @OptionGroup var options: TerminalOptions

    @OptionGroup var lan: NetworkedTerminalOptions

    func run() async throws {
        let currency = try AmountArgument.currency(currency)
        let minor = try amount.map { try AmountArgument.minorUnits($0, currency) }
        if let transaction {
            let id = try PaymentCommandHelp.transactionID(transaction)
            try await PaymentCommandHelp.run(options, needsReader: false, receipt: false, lan: lan) {
                terminal throws(MPOSError) in
                try await terminal.refund(transactionID: id, amount: minor)
            }
        } else {
            guard let minor else {
                throw CLIFailure("give --transaction ID, or --amount for an unreferenced refund")
            }
            let parameters = PaymentParameters(amount: minor, currency: currency)
            try await PaymentCommandHelp.run(options, needsReader: true, receipt: true, lan: lan) {
                terminal throws(MPOSError) in
                try await terminal.refundUnreferenced(parameters)
            }
        }
    }
}

/// `mpos void --transaction ID`
struct VoidCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "void",
        abstract: "Void a sale, authorisation, cash payment or refund before its batch closes.",
        discussion: PaymentCommandHelp.discussion)

    @Option(help: "The transaction to void.")
    var transaction: String

    @OptionGroup var options: TerminalOptions

    @OptionGroup var lan: NetworkedTerminalOptions

    func run() async throws {
        let id = try PaymentCommandHelp.transactionID(transaction)
        try await PaymentCommandHelp.run(options, needsReader: false, receipt: false, lan: lan) {
            terminal throws(MPOSError) in
            try await terminal.void(transactionID: id)
        }
    }
}

/// `mpos capture --transaction ID [--amount X]`
struct CaptureCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture", abstract: "Capture an authorisation, in full or in part.",
        discussion: PaymentCommandHelp.discussion)

    @Option(help: "The authorisation to capture.")
    var transaction: String

    @Option(help: "The amount in major units (default: all that was authorised).")
    var amount: String?

    @Option(help: "The ISO 4217 currency code of --amount.")
    var currency = "EUR"

    @OptionGroup var options: TerminalOptions

    func run() async throws {
        let id = try PaymentCommandHelp.transactionID(transaction)
        let currency = try AmountArgument.currency(currency)
        let minor = try amount.map { try AmountArgument.minorUnits($0, currency) }
        try await PaymentCommandHelp.run(options, needsReader: false, receipt: false) {
            terminal throws(MPOSError) in
            try await terminal.capture(transactionID: id, amount: minor)
        }
    }
}

/// `mpos tip --transaction ID --amount X`
struct TipCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tip", abstract: "Set the tip of a sale taken with `mpos sale --tip-adjustable`.",
        discussion: PaymentCommandHelp.discussion)

    @Option(help: "The sale.")
    var transaction: String

    @Option(help: "The tip in major units (replaces any earlier tip; 0 removes it).")
    var amount: String

    @Option(help: "The ISO 4217 currency code of --amount.")
    var currency = "EUR"

    @OptionGroup var options: TerminalOptions

    func run() async throws {
        let id = try PaymentCommandHelp.transactionID(transaction)
        let currency = try AmountArgument.currency(currency)
        let tip: Int64
        do { tip = try Money.parse(amount, currency: currency).amount } catch {
            throw CLIFailure(
                "invalid amount '\(amount)': \(error.message) Write it in major units, e.g. 2.50")
        }
        try await PaymentCommandHelp.run(options, needsReader: false, receipt: false) {
            terminal throws(MPOSError) in
            try await terminal.adjustTip(transactionID: id, tipAmount: tip)
        }
    }
}

/// `mpos cash --amount X [--currency C] [--refund]`
struct CashCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cash",
        abstract: "Record a cash payment (or, with --refund, cash paid back); no reader.",
        discussion: PaymentCommandHelp.discussion)

    @OptionGroup var money: MoneyOptions

    @Flag(help: "Record cash paid back to the customer.")
    var refund = false

    @OptionGroup var options: TerminalOptions

    func run() async throws {
        let parameters = try money.parameters()
        let refund = refund
        try await PaymentCommandHelp.run(options, needsReader: false, receipt: false) {
            terminal throws(MPOSError) in
            try await terminal.recordCash(parameters, refund: refund)
        }
    }
}
