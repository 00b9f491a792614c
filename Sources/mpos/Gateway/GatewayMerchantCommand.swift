import ArgumentParser
import Foundation
import SandboxGateway

/// `mpos gateway merchant …`
struct GatewayMerchantCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merchant",
        abstract: "Manage the merchants of a sandbox database.",
        subcommands: [GatewayMerchantAddCommand.self]
    )
}

/// `mpos gateway merchant add --db PATH [--name NAME]`: adds a merchant and prints its
/// credentials once, as the first start of `mpos gateway serve` does.
struct GatewayMerchantAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a merchant to a sandbox database and print its credentials once.",
        discussion: """
            Creates the database if it is missing. Prints the new merchant's id, user, password \
            and API key once: only their hashes are stored. A gateway already serving the \
            database serves the new merchant at once; each merchant sees only its own data.

            Examples:
              mpos gateway merchant add --db /tmp/sandbox.sqlite
              mpos gateway merchant add --db /tmp/sandbox.sqlite --name "Team B"
            """
    )

    @OptionGroup var storage: GatewayDatabaseOptions

    @Option(name: .long, help: "The merchant's display name.")
    var name: String?

    func validate() throws {
        try storage.requireNamed()
        if let name, !(1...100).contains(name.count) {
            throw ValidationError("--name must be 1 to 100 characters.")
        }
    }

    mutating func run() async throws {
        let credentials: SandboxCredentials
        do {
            credentials = try await SandboxGateway.addMerchant(
                try storage.configuration(), name: name)
        } catch let error as GatewayStartupError {
            // Already one line naming the key or the database.
            throw error
        } catch let error as CocoaError {
            // Foundation's own description of a file error is a dump of its user info.
            throw CLIFailure("\(storage.flag) \(storage.shown): cannot open the sandbox database: \(error.localizedDescription)")
        } catch {
            throw CLIFailure("\(storage.flag) \(storage.shown): cannot open the sandbox database: \(error)")
        }
        print(GatewayServeOutput.credentials(credentials, database: storage.shown))
    }
}
