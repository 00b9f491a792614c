import ArgumentParser
import Foundation
import SandboxGateway

/// Where a gateway command finds the card-fingerprint key, which never lives in the database:
/// `MPOS_FINGERPRINT_KEY` (64 hex digits), else `--fingerprint-key FILE`, else the default key
/// file `$XDG_CONFIG_HOME/mpos/fingerprint.key` (`~/.config/mpos/fingerprint.key`), created
/// 0600 in a 0700 folder when missing, with the key an older database still holds or a new one.
struct FingerprintKeyOptions: ParsableArguments {
    /// The environment variable that holds the key's hex.
    static let environmentVariable = "MPOS_FINGERPRINT_KEY"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "File with the card-fingerprint key (64 hex digits, mode 0600), kept apart from the database; "
                + "MPOS_FINGERPRINT_KEY may hold the key instead. Default: ~/.config/mpos/fingerprint.key, "
                + "created if missing.",
            valueName: "FILE"))
    var fingerprintKey: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "File with the key the database's fingerprints were made with before a rotation to the current key.",
            valueName: "FILE"))
    var previousFingerprintKey: String?

    /// Sets `configuration`'s key (or the default key file to use) and previous key.
    ///
    /// - Throws: ``GatewayStartupError/fingerprintKeyUnusable`` when a key given cannot be used,
    ///   before anything is opened; `ValidationError` when both the variable and the option are set.
    func apply(
        to configuration: inout SandboxGatewayConfiguration,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        let fromEnvironment = environment[Self.environmentVariable].flatMap { $0.isEmpty ? nil : $0 }
        if fromEnvironment != nil, fingerprintKey != nil {
            throw ValidationError(
                "Give the card-fingerprint key once: MPOS_FINGERPRINT_KEY or --fingerprint-key.")
        }
        if let previousFingerprintKey {
            configuration.previousFingerprintKeys = [
                try CardFingerprintKeyFile.read(path: previousFingerprintKey)
            ]
        }
        if let fromEnvironment {
            do {
                configuration.fingerprintKey = try CardFingerprintKey(hex: fromEnvironment)
            } catch {
                throw GatewayStartupError.fingerprintKeyUnusable(
                    source: Self.environmentVariable, why: "\(error)")
            }
        } else if let fingerprintKey {
            configuration.fingerprintKey = try CardFingerprintKeyFile.read(path: fingerprintKey)
        } else {
            let file = try Self.defaultFile(environment: environment)
            let databaseFolder = URL(fileURLWithPath: configuration.databasePath).deletingLastPathComponent()
            if configuration.databaseURL == nil,
                databaseFolder.standardizedFileURL.path
                    == URL(fileURLWithPath: file).deletingLastPathComponent().standardizedFileURL.path
            {
                throw GatewayStartupError.fingerprintKeyUnusable(
                    source: "The default card-fingerprint key file \(file)",
                    why: "it would sit beside the database; keep the database elsewhere, or give "
                        + "--fingerprint-key FILE in another folder")
            }
            if FileManager.default.fileExists(atPath: file) {
                configuration.fingerprintKey = try CardFingerprintKeyFile.read(path: file)
            } else {
                configuration.fingerprintKeyFile = file
            }
        }
    }

    /// `$XDG_CONFIG_HOME/mpos/fingerprint.key`, else `$HOME/.config/mpos/fingerprint.key`.
    static func defaultFile(environment: [String: String]) throws -> String {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return config + "/mpos/fingerprint.key"
        }
        guard let home = environment["HOME"], !home.isEmpty else {
            throw GatewayStartupError.fingerprintKeyUnusable(
                source: "The default card-fingerprint key file",
                why: "there is no home folder; set HOME or XDG_CONFIG_HOME, or give MPOS_FINGERPRINT_KEY "
                    + "or --fingerprint-key FILE")
        }
        return home + "/.config/mpos/fingerprint.key"
    }
}
