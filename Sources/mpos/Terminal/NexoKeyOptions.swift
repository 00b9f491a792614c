import ArgumentParser
import TerminalAPI

/// Adyen's local Terminal API encryption key, as `mpos terminal emulate` and `mpos nexo send`
/// take it: all three options or none.
struct NexoKeyOptions: ParsableArguments {
    @Option(help: "The encryption key's identifier (with --key-passphrase and --key-version).")
    var keyIdentifier: String?

    @Option(help: "The passphrase the encryption key is derived from.")
    var keyPassphrase: String?

    @Option(help: "The encryption key's version.")
    var keyVersion: Int?

    func validate() throws {
        let given = [keyIdentifier != nil, keyPassphrase != nil, keyVersion != nil]
        guard given.allSatisfy({ $0 }) || given.allSatisfy({ !$0 }) else {
            throw ValidationError("--key-identifier, --key-passphrase and --key-version go together.")
        }
    }

    /// The key given; nil without one.
    var securityKey: NexoSecurityKey? {
        guard let keyIdentifier, let keyPassphrase, let keyVersion else { return nil }
        return NexoSecurityKey(keyIdentifier: keyIdentifier, keyVersion: keyVersion, passphrase: keyPassphrase)
    }

    /// The cipher for the key given; nil without one.
    var crypto: NexoCrypto? { securityKey.map { NexoCrypto(key: $0) } }
}
