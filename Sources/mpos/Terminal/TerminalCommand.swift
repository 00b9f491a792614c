import ArgumentParser
import Foundation
import MPOSKit
import TerminalAPI

/// `mpos terminal …`
struct TerminalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "terminal",
        abstract: "Emulate a payment terminal that speaks the Terminal API (nexo).",
        subcommands: [TerminalEmulateCommand.self]
    )
}

/// `mpos terminal emulate [--port N] [--poi-id ID] [--key-…] [--gateway URL …]`: a Terminal API
/// terminal on 127.0.0.1, backed by `terminal.perform(terminalAPIRequest:)`.
struct TerminalEmulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emulate",
        abstract: "Serve POST /nexo on 127.0.0.1 like a payment terminal on the LAN.",
        discussion: """
            Payments run through MPOSKit against the embedded sandbox gateway and a simulated \
            reader presenting --card (or --gateway and --reader, as the payment commands take \
            them); amounts drive the sandbox's scenarios (docs/test-cards.md). Requests must name \
            --poi-id (default: this installation's id, kept with the journal). With a key it takes encrypted \
            messages only and answers encrypted. Prints 'listening on http://127.0.0.1:PORT' and \
            serves until SIGINT or SIGTERM.

            Example:
              mpos terminal emulate --port 8443 --poi-id V400m-123456789
            """
    )

    @Option(help: "Port to bind on 127.0.0.1; 0 picks a free one.")
    var port = 8443

    @Option(help: "The POIID requests must name (default: this installation's id, kept with the journal).")
    var poiId: String?

    @OptionGroup var key: NexoKeyOptions

    @OptionGroup var terminal: TerminalOptions

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
    }

    func run() async throws {
        let signals = TerminationSignals()
        let crypto = key.crypto
        try await TerminalSession.with(terminal, needsReader: true, showEvents: false) { paymentTerminal in
            if let poiId { await paymentTerminal.terminalAPI.setInstallationID(poiId) }
            let server = try await NexoHTTPServer.start(port: port) { body in
                await Self.answer(body, terminal: paymentTerminal, crypto: crypto)
            }
            CLIOutput.line("poi id \(await paymentTerminal.terminalAPI.installationID())")
            CLIOutput.line("listening on http://127.0.0.1:\(server.port)")
            let signal = await signals.wait()
            CLIOutput.line("received \(signal), shutting down")
            await server.shutdown()
        }
    }

    /// The terminal's answer to one posted body: its response, or the `Reject` notification
    /// Adyen's terminals send for what they cannot read.
    static func answer(_ body: Data, terminal: PaymentTerminal, crypto: NexoCrypto?) async -> Data {
        do {
            if let crypto { return try await terminal.perform(terminalAPIRequest: body, crypto: crypto) }
            return try await terminal.perform(terminalAPIRequest: body)
        } catch {
            return NexoOutcome.reject(reason: error.message)
        }
    }
}
