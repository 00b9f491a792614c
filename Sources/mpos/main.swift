import ArgumentParser

@main
struct MPOS: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mpos",
        abstract: "MPOSKit's command-line tool: EMV decoding, and later the sandbox and the demo.",
        subcommands: []
    )
}
