import ArgumentParser
import Foundation
import ReaderLinkTCP
import ReaderSimulator
import SandboxCards
import VirtualSmartCard

/// `mpos card …`
struct CardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "card",
        abstract: "Put a sandbox card into a smart-card reader.",
        subcommands: [CardEmulateCommand.self]
    )
}

/// `mpos card emulate --card ID --vpcd HOST:PORT [--t0] [--slow-ms N] [--pull-after N]`
struct CardEmulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emulate",
        abstract: "Put a sandbox card into a vpcd virtual reader of pcscd.",
        discussion: """
            Connects to vsmartcard's vpcd driver, which pcscd loaded and which waits for a card on \
            HOST:PORT (the first slot's port; PORT+1 for the second), and answers its APDUs as the \
            sandbox card ID (docs/test-cards.md) with the card's keys, so the sandbox gateway verifies \
            its cryptograms. Prints 'card ID in HOST:PORT' once connected; exits when the card is \
            pulled out (--pull-after), when pcscd goes away, or on SIGINT/SIGTERM. docs/pcsc-readers.md.
            """
    )

    @Option(help: "The sandbox card (an id from docs/test-cards.md).")
    var card: String = "visa-credit"

    @Option(help: "Where vpcd waits for the card, HOST:PORT.")
    var vpcd: String

    @Flag(help: "Answer as a T=0 card: 61xx for data waiting for GET RESPONSE, 6Cxx for a wrong Le.")
    var t0 = false

    @Option(help: "Milliseconds the card takes before each answer.")
    var slowMs: Int = 0

    @Option(help: "Pull the card out after it answered this many commands.")
    var pullAfter: Int?

    func run() async throws {
        guard let sandbox = SandboxCards.card(id: card) else {
            throw ValidationError(
                "unknown card '\(card)'; known: \(SandboxCards.all.map(\.id).joined(separator: ", "))")
        }
        guard let colon = vpcd.lastIndex(of: ":"), let port = Int(vpcd[vpcd.index(after: colon)...]),
            (1...65535).contains(port), colon != vpcd.startIndex
        else { throw ValidationError("--vpcd must be HOST:PORT, e.g. 127.0.0.1:35963") }
        guard slowMs >= 0 else { throw ValidationError("--slow-ms must be 0 or more") }
        if let pullAfter, pullAfter < 1 { throw ValidationError("--pull-after must be 1 or more") }
        var chip = try SimulatedCard(card: sandbox)
        chip.alignATC(to: Date())
        let responder = APDUResponder(card: chip, options: .init(t0: t0, pullAfter: pullAfter))
        let client = VPCDCardClient(slot: VirtualCardSlot(card: responder), delay: .milliseconds(slowMs))
        let host = String(vpcd[..<colon])
        let signals = TerminationSignals()
        let transport: TCPTransport
        do { transport = try await TCPTransport.connect(host: host, port: port) } catch {
            throw CLIFailure("cannot reach vpcd at \(host):\(port): \(error)")
        }
        CLIOutput.line("card \(sandbox.id) in \(host):\(port)")
        let serving = Task { try await client.serve(transport) }
        // Unstructured: a signal cancels the card, whose loop then ends; the wait itself cannot
        // be cancelled and ends with the process.
        let watcher = Task {
            let signal = await signals.wait()
            CLIOutput.error("received \(signal), the card leaves the reader")
            serving.cancel()
        }
        switch await serving.result {
        case .success(.pulledOut): CLIOutput.error("card pulled out")
        case .success(.closedByReader): CLIOutput.error("the reader closed the connection")
        case .failure: break
        }
        watcher.cancel()
        await transport.close()
    }
}
