import ArgumentParser
import Foundation
import MPOSKit

/// The `mpos` command-line tool.
@main
struct MPOS: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mpos",
        abstract: "MPOSKit's command-line tool.",
        discussion: "Run a demo payment, take and manage payments, see reports, decode EMV data, print receipts and open the cash drawer, run the reader and printer emulators and the sandbox gateway.",
        version: MPOSKitInfo.description,
        subcommands: [
            DemoCommand.self, SaleCommand.self, AuthorizeCommand.self, CaptureCommand.self, RefundCommand.self,
            VoidCommand.self, TipCommand.self, CashCommand.self, SEPACommand.self, TransactionsCommand.self, StatsCommand.self,
            OfflineCommand.self, JournalCommand.self,
            EMVCommand.self, ReaderCommand.self, CardCommand.self, PrinterCommand.self, PrintCommand.self, DrawerCommand.self,
            GatewayCommand.self, DashboardCommand.self,
            TerminalCommand.self, NexoCommand.self,
        ]
    )

    /// Parses and runs the command. A command line the parser refuses (a missing value, an
    /// unknown option, a negative amount read as an option) is one line on standard error and
    /// exit 1, like every other malformed argument; ArgumentParser's own code for it is 64.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            CLIOutput.error("Error: " + usageProblem(message(for: error), arguments: arguments))
            Foundation.exit(1)
        }
    }

    /// The parser's complaint in one line, naming a negative number it took for an option.
    static func usageProblem(_ message: String, arguments: [String]) -> String {
        let first = message.split(separator: "\n").first.map(String.init) ?? message
        for (option, value) in zip(arguments, arguments.dropFirst())
        where option.hasPrefix("--") && value.count > 1 && value.hasPrefix("-")
            && value.dropFirst().first.map(\.isNumber) == true && first.contains(option)
        {
            return "invalid \(option) '\(value)': it must be greater than zero"
        }
        return first + " (see 'mpos help')"
    }
}

/// `mpos emv …`
struct EMVCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emv",
        abstract: "Work with EMV data.",
        subcommands: [EMVDecodeCommand.self]
    )
}
