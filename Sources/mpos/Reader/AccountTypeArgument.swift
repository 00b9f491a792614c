import ArgumentParser
import MPOSCore

/// The accounts as the CLI names them: `mpos reader emulate --account-type` takes them, and
/// `mpos sale --json` answers with them.
enum AccountTypeArgument {
    static let names: [(name: String, account: AccountType)] = [
        ("default", .default), ("savings", .savings), ("cheque", .chequeDebit), ("credit", .credit),
    ]

    /// The account named `text`, or a validation error listing the names.
    static func parse(_ text: String) throws -> AccountType {
        guard let account = names.first(where: { $0.name == text.lowercased() })?.account else {
            throw ValidationError(
                "--account-type must be \(names.dropLast().map(\.name).joined(separator: ", ")) or \(names[names.count - 1].name), not '\(text)'")
        }
        return account
    }

    /// The CLI's name of `account`.
    static func name(of account: AccountType) -> String {
        names.first { $0.account == account }?.name ?? "default"
    }
}
