import ArgumentParser
import Foundation
import MPOSCore
import MPOSKit
import MPOSKitNIO

/// `mpos journal …`
struct JournalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal",
        abstract: "List the payment journals and finish what one left unfinished at its own gateway.",
        discussion: """
            With --gateway and no --journal, payment commands keep a journal per gateway and merchant \
            under the per-user data folder ($XDG_DATA_HOME/mpos, else ~/.local/share/mpos; Application \
            Support on Apple platforms): journals/GATEWAY-INSTANCE/MERCHANT.sqlite. A journal holds the \
            attempts of one gateway and merchant: its unfinished ones are only ever settled there.
            """,
        subcommands: [JournalListCommand.self, JournalFinishCommand.self])
}

/// `mpos journal list [PATH…]`
struct JournalListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Show each journal's gateway, merchant and unfinished attempts; reads, never changes, the files.",
        discussion: """
            Without paths, the journals in the per-user data folder. Each line: PATH, the gateway's \
            instance id, the URL it was last reached at, the merchant, and how many attempts wait for \
            that gateway ('-' where a journal was never bound to one).
            Exit codes: 0; 1 when a given path is not a journal.
            """)

    @Argument(help: "Journal files to show instead of the per-user ones.")
    var paths: [String] = []

    @Flag(help: "Print the result as JSON (stable keys) instead of text.")
    var json = false

    func run() async throws {
        let journals = paths.isEmpty ? try JournalLocation.known() : paths
        var summaries: [JournalSummary] = []
        for path in journals {
            do { summaries.append(try JournalSummary.read(path: path)) } catch { throw CLIFailure(error.message) }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .iso8601
            let rows = summaries.map(JSONRow.init)
            CLIOutput.line(String(decoding: (try? encoder.encode(rows)) ?? Data("[]".utf8), as: UTF8.self))
            return
        }
        for summary in summaries {
            let owner = summary.owner
            CLIOutput.line(
                [
                    summary.path, owner?.gatewayInstanceID ?? "-", owner?.gatewayURL ?? "-", owner?.merchantID ?? "-",
                    "\(summary.unfinishedAttempts + summary.unfinishedNetworkedAttempts) unfinished",
                ].joined(separator: "  "))
        }
    }

    /// One journal in `--json`.
    struct JSONRow: Encodable {
        let path: String
        let gatewayInstanceID: String?
        let gatewayURL: String?
        let merchantID: String?
        let unfinishedAttempts: Int
        let unfinishedNetworkedAttempts: Int
        let lastActivity: Date?

        init(_ summary: JournalSummary) {
            path = summary.path
            gatewayInstanceID = summary.owner?.gatewayInstanceID
            gatewayURL = summary.owner?.gatewayURL
            merchantID = summary.owner?.merchantID
            unfinishedAttempts = summary.unfinishedAttempts
            unfinishedNetworkedAttempts = summary.unfinishedNetworkedAttempts
            lastActivity = summary.lastActivity
        }
    }
}

/// `mpos journal finish --journal PATH [--gateway URL] --user U --password-file FILE`
struct JournalFinishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "finish",
        abstract: "Settle a journal's unfinished attempts at its own gateway: look each up, reverse or record it.",
        discussion: """
            --gateway defaults to the URL the journal's gateway was last reached at. The gateway is \
            asked who it is first: a journal of another gateway or merchant is refused before anything \
            in it changes. Each attempt settled is told on standard error as payment commands tell them; \
            standard output ends with 'finished N, unfinished M'.
            Exit codes: 0 when nothing is left unfinished; 1 for a path that is not a journal, a gateway \
            that cannot be reached or is not the journal's, or attempts the gateway could not settle yet.

            Example:
              mpos journal finish --journal ~/.local/share/mpos/journal.sqlite --user sandbox \\
                  --password-file ~/.mpos-password
            """)

    @OptionGroup var options: TerminalOptions

    func run() async throws {
        guard let path = options.journal, !path.isEmpty else {
            throw CLIFailure("give --journal PATH: the journal to finish (see 'mpos journal list')")
        }
        let before: JournalSummary
        do { before = try JournalSummary.read(path: path) } catch { throw CLIFailure(error.message) }
        var resolved = options
        guard let gateway = options.gateway ?? before.owner?.gatewayURL else {
            throw CLIFailure("the journal \(path) was never bound to a gateway: give --gateway URL")
        }
        resolved.gateway = gateway
        // Who the gateway is, before the journal is opened: a refusal changes no file.
        let (remote, tls) = try TerminalSession.gatewayOptions(resolved)
        if let remote, let owner = before.owner {
            let probe = NIOGatewayTransport(tlsConfiguration: tls)
            let identity: GatewayIdentity
            do {
                identity = try await PaymentTerminal.identify(
                    environment: remote.url, credentials: remote.credentials, transport: probe)
            } catch {
                await probe.shutdown()
                throw CLIFailure("login at \(gateway) failed: \(error.message) Nothing in \(path) changed.")
            }
            await probe.shutdown()
            guard owner.admits(identity) else {
                throw CLIFailure(
                    "the journal \(path) belongs to \(owner), not \(identity); nothing in it changed. "
                        + "Give the --gateway and credentials it was used with.")
            }
        }
        // Opening the session logs in, and login settles what the journal holds unfinished.
        try await TerminalSession.with(resolved, needsReader: false, showEvents: false) { _ in }
        let after: JournalSummary
        do { after = try JournalSummary.read(path: path) } catch { throw CLIFailure(error.message) }
        let left = after.unfinishedAttempts + after.unfinishedNetworkedAttempts
        let settled = before.unfinishedAttempts + before.unfinishedNetworkedAttempts - left
        CLIOutput.line("finished \(max(0, settled)), unfinished \(left)")
        if left > 0 {
            throw CLIFailure("\(left) attempt(s) in \(path) could not be settled yet; run it again when the gateway can answer")
        }
    }
}
