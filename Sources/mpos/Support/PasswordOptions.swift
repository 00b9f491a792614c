import ArgumentParser
import Foundation

/// `--password`, `--password-file FILE` and `MPOS_PASSWORD`: how every command that logs a
/// merchant user in takes the password (``CommandLineSecret``), so that it need not appear on
/// the command line.
struct PasswordOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The merchant user's password. Other users of this machine can read it in ps: prefer "
                + "--password-file or MPOS_PASSWORD.",
            valueName: "password"))
    var password: String?

    @Option(
        help: ArgumentHelp(
            "A file whose first line is the merchant user's password, readable by its owner only (chmod 600). "
                + "Without --password, --password-file or MPOS_PASSWORD the password is asked on a terminal.",
            valueName: "file"))
    var passwordFile: String?

    static let source = CommandLineSecret(
        option: "--password", fileOption: "--password-file", environmentVariable: "MPOS_PASSWORD")

    /// The password for `user`: `--password`, else `--password-file`, else `MPOS_PASSWORD`, else
    /// asked without echo on a terminal; `nil` when none is given and there is no terminal.
    ///
    /// - Throws: `CLIFailure` for a password file that cannot be used (one line).
    func resolve(user: String) throws -> String? {
        try Self.source.resolve(value: password, file: passwordFile, prompt: "Password for \(user): ")
    }

    /// What to say when no password could be had.
    static let missing =
        "give the password with --password-file FILE or MPOS_PASSWORD (or run on a terminal to be asked)"
}
