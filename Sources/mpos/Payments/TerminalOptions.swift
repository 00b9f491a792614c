import ArgumentParser
import Foundation
import MPOSCore

/// Where the payment commands run: a gateway and a reader given on the command line, or an
/// embedded sandbox (gateway on a temporary database, simulated reader on loopback) for
/// whichever of the two is not given.
struct TerminalOptions: ParsableArguments {
    @Option(
        help: "The gateway's base URL, e.g. http://127.0.0.1:8080 (default: an embedded sandbox gateway).")
    var gateway: String?

    @Option(
        help: ArgumentHelp(
            "Hold the gateway to an environment: sandbox (SBX) or production (PROD). Login is refused "
                + "when the gateway says it is of the other kind; production needs an https --gateway.",
            valueName: "name"))
    var environment: String?

    @Option(help: "A PEM certificate to trust for an https --gateway, such as a sandbox's self-signed one.")
    var gatewayCertificate: String?

    @Option(help: "The merchant user id at --gateway.")
    var user: String?

    @OptionGroup var password: PasswordOptions

    @Option(
        help: ArgumentHelp(
            "A client token minted by your backend, instead of --user and its password (other users of this "
                + "machine can read it in ps: prefer --client-token-file or MPOS_CLIENT_TOKEN).",
            valueName: "token"))
    var clientToken: String?

    @Option(
        help: ArgumentHelp(
            "A file whose first line is the client token, readable by its owner only (chmod 600). Without "
                + "--client-token, --client-token-file or --user, MPOS_CLIENT_TOKEN is used when set.",
            valueName: "file"))
    var clientTokenFile: String?

    @Option(help: "The card reader's address, HOST:PORT (default: an embedded simulated reader).")
    var reader: String?

    @Option(
        help:
            "The reader's shared secret, 64 hex characters (default: the sandbox reader's published secret).")
    var secret: String?

    @Option(help: "The test card the embedded reader presents (an id from docs/test-cards.md).")
    var card: String = "visa-credit"

    @Option(
        help: ArgumentHelp(
            "The payment journal, an SQLite file kept across runs: what a killed run left open is "
                + "finished by the next one (default with --gateway: a per-user file under "
                + "$XDG_DATA_HOME/mpos or Application Support; with the embedded sandbox: a temporary one).",
            valueName: "path"))
    var journal: String?

    @Flag(help: "Print the result as JSON (stable keys) instead of text.")
    var json = false
}

/// Amount and currency as typed, checked before anything starts.
enum AmountArgument {
    /// The currency for `code`, or a failure naming it.
    static func currency(_ code: String) throws -> Currency {
        guard let currency = Currency(code: code.uppercased()) else {
            throw CLIFailure("unknown currency '\(code)': use an ISO 4217 code such as EUR, USD or GBP")
        }
        return currency
    }

    /// Minor units of `text` (major units such as `12.34`) in `currency`, greater than zero.
    static func minorUnits(_ text: String, _ currency: Currency) throws -> Int64 {
        let money: Money
        do { money = try Money.parse(text, currency: currency) } catch {
            throw CLIFailure("invalid amount '\(text)': \(error.message) Write it in major units, e.g. 12.34")
        }
        guard money.amount > 0 else {
            throw CLIFailure("invalid amount '\(text)': it must be greater than zero")
        }
        return money.amount
    }
}

extension TerminalOptions {
    static let clientTokenSource = CommandLineSecret(
        option: "--client-token", fileOption: "--client-token-file", environmentVariable: "MPOS_CLIENT_TOKEN")

    /// The client token given by `--client-token` or `--client-token-file`, else by
    /// `MPOS_CLIENT_TOKEN` when no `--user` says to log in with a password; never asked for.
    ///
    /// - Throws: `CLIFailure` for a token file that cannot be used.
    func resolveClientToken(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> String? {
        if clientToken != nil || clientTokenFile != nil || user == nil {
            return try Self.clientTokenSource.resolve(
                value: clientToken, file: clientTokenFile, prompt: nil, environment: environment)
        }
        return nil
    }
}
