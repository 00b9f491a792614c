import ArgumentParser
import MPOSCore
import MPOSKit

/// `mpos sepa --amount X [--currency EUR] [--mandate REF]`
struct SEPACommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sepa",
        abstract: "Take a SEPA direct debit: the card identifies the customer's bank account (EUR only).",
        discussion: PaymentCommandHelp.discussion + """


            The card presented on the reader stands for the customer's account (no IBAN is \
            typed); the gateway records the mandate under --mandate, or assigns a reference.

            Examples:
              mpos sepa --amount 25.00 --mandate MANDATE-2026-0042
              mpos sepa --amount 25.00 --json
            """)

    @OptionGroup var money: MoneyOptions

    @Option(help: "The merchant's mandate reference, 1 to 35 characters (default: the gateway assigns one).")
    var mandate: String?

    @Option(help: "The merchant's reference for the customer or order.")
    var reference: String?

    @OptionGroup var options: TerminalOptions

    func run() async throws {
        var parameters = try money.parameters()
        guard parameters.currency == .eur else {
            throw CLIFailure("a SEPA direct debit is in EUR, not \(parameters.currency.code)")
        }
        parameters.customerReference = reference
        let mandate = mandate
        try await PaymentCommandHelp.run(options, needsReader: true, receipt: true) {
            terminal throws(MPOSError) in
            try await terminal.sepaDirectDebit(parameters, mandateReference: mandate)
        }
    }
}
