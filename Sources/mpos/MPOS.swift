import ArgumentParser

/// The `mpos` command-line tool.
@main
struct MPOS: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mpos",
        abstract: "MPOSKit's command-line tool.",
        discussion: "Run a demo payment, take and manage payments, see reports, decode EMV data, run the reader emulator and the sandbox gateway.",
        version: "0.1.0",
        subcommands: [
            DemoCommand.self, SaleCommand.self, AuthorizeCommand.self, CaptureCommand.self, RefundCommand.self,
            VoidCommand.self, TipCommand.self, CashCommand.self, SEPACommand.self, TransactionsCommand.self, StatsCommand.self,
            EMVCommand.self, ReaderCommand.self, GatewayCommand.self,
        ]
    )
}

/// `mpos emv …`
struct EMVCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emv",
        abstract: "Work with EMV data.",
        subcommands: [EMVDecodeCommand.self]
    )
}
