import ArgumentParser

/// The `mpos` command-line tool.
@main
struct MPOS: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mpos",
        abstract: "MPOSKit's command-line tool.",
        discussion: "Decode EMV data, run the reader emulator and the sandbox gateway; the demo joins as it lands.",
        version: "0.1.0",
        subcommands: [EMVCommand.self, ReaderCommand.self, GatewayCommand.self]
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
