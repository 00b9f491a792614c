/// Why a sandbox gateway refused to start (on its database, or on its address): thrown by
/// ``SandboxGateway/start(_:)`` before it binds anything. Its description is one line fit for
/// a terminal.
///
/// Match a reason with `==` (``cardFingerprintSecretUnreadable``, ``fingerprintKeyMismatch`` …); the description adds the
/// database path and what was found.
public struct GatewayStartupError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Reason: Hashable, Sendable {
        case cardFingerprintSecretUnreadable
        case instanceIDMissing
        case plainHTTPBeyondLoopback
        case fingerprintKeyUnusable
        case fingerprintKeyMismatch
        case fingerprintKeyRequired
    }
    private let reason: Reason
    private let detail: String

    private init(_ reason: Reason, detail: String = "") {
        self.reason = reason
        self.detail = detail
    }

    /// The database's card-fingerprint secret is missing or not a secret (too short, not a
    /// blob). Fingerprints made with it, and with them the duplicate check and the cards'
    /// spend, would not match those already stored, so the gateway does not start.
    public static let cardFingerprintSecretUnreadable = GatewayStartupError(.cardFingerprintSecretUnreadable)

    /// The same reason with the database path and what was found.
    static func cardFingerprintSecretUnreadable(path: String, found: String) -> GatewayStartupError {
        GatewayStartupError(
            .cardFingerprintSecretUnreadable,
            detail: "The card-fingerprint secret in \(path) cannot be used (\(found)): the stored cards' "
                + "fingerprints would no longer match, so the gateway does not start. Restore the database "
                + "from a backup, or start on a new database file.")
    }

    /// The database has no gateway instance id (its row was deleted): terminals' journals are
    /// bound to it, so a new one would make every journal refuse this gateway.
    public static let instanceIDMissing = GatewayStartupError(.instanceIDMissing)

    /// The same reason with the database path.
    static func instanceIDMissing(path: String) -> GatewayStartupError {
        GatewayStartupError(
            .instanceIDMissing,
            detail: "The gateway instance id in \(path) is missing: the terminals' journals are bound to it, so "
                + "the gateway does not start. Restore the database from a backup, or start on a new database file.")
    }

    /// The configuration serves plain HTTP on an address other hosts can reach, without
    /// `allowsInsecureHTTP`: passwords, tokens and card data would cross the network in clear.
    /// Serve TLS (`SandboxGatewayConfiguration.tls`), bind loopback, or allow it explicitly.
    public static let plainHTTPBeyondLoopback = GatewayStartupError(.plainHTTPBeyondLoopback)

    /// The same reason with the host.
    static func plainHTTPBeyondLoopback(host: String) -> GatewayStartupError {
        GatewayStartupError(
            .plainHTTPBeyondLoopback,
            detail: "The gateway does not serve plain HTTP on \(host), an address other hosts can reach: "
                + "serve TLS (a certificate and key), bind a loopback address, or set allowsInsecureHTTP.")
    }

    /// The card-fingerprint key given (a key file, `MPOS_FINGERPRINT_KEY`) cannot be used: the
    /// file is missing, unreadable, readable by group or others, or does not hold a key of 32
    /// bytes or more. Nothing is opened or changed.
    public static let fingerprintKeyUnusable = GatewayStartupError(.fingerprintKeyUnusable)

    /// The same reason with where the key came from and why it cannot be used:
    /// "`source` cannot be used: `why`."
    public static func fingerprintKeyUnusable(source: String, why: String) -> GatewayStartupError {
        GatewayStartupError(.fingerprintKeyUnusable, detail: "\(source) cannot be used: \(why).")
    }

    /// The database's card fingerprints were made with another key than the one given (and
    /// not one given as previous): matching cards (the duplicate check, spend limits, replayed
    /// cryptograms) would silently stop working, so the gateway does not start and changes nothing.
    public static let fingerprintKeyMismatch = GatewayStartupError(.fingerprintKeyMismatch)

    /// The same reason with the database, the ids of both keys and what to do.
    static func fingerprintKeyMismatch(database: String, stored: String, given: String) -> GatewayStartupError {
        GatewayStartupError(
            .fingerprintKeyMismatch,
            detail: "The card fingerprints in \(database) were made with \(stored), but this gateway was given "
                + "\(given): start it with the key of \(stored), or, to rotate keys, give \(given) with "
                + "the old key as the previous card-fingerprint key.")
    }

    /// The same reason for a database made by an older version, which still holds its own key.
    static func fingerprintKeyMismatch(database: String, holding stored: String, given: String) -> GatewayStartupError {
        GatewayStartupError(
            .fingerprintKeyMismatch,
            detail: "\(database) still holds the \(stored) its card fingerprints were made with, but this gateway "
                + "was given \(given): to keep the database's key, start with no key given and no default key "
                + "file (it is moved to the default key file); to change keys, give the database's key as the "
                + "previous card-fingerprint key.")
    }

    /// The database still holds its card-fingerprint key (made by an older version) and no key
    /// and no key file to move it to was given: the key must leave the database before it is
    /// migrated, so the gateway does not start and changes nothing.
    public static let fingerprintKeyRequired = GatewayStartupError(.fingerprintKeyRequired)

    /// The same reason with the database.
    static func fingerprintKeyRequired(database: String) -> GatewayStartupError {
        GatewayStartupError(
            .fingerprintKeyRequired,
            detail: "\(database) still holds its card-fingerprint key and no key or key file was given to move it "
                + "to: give its key file (mpos gateway moves it to ~/.config/mpos/fingerprint.key by itself).")
    }

    /// The same reason for a store opened without any key, which cannot serve payments.
    static func fingerprintKeyRequired(toServe database: String) -> GatewayStartupError {
        GatewayStartupError(
            .fingerprintKeyRequired,
            detail: "No card-fingerprint key was given to serve \(database): open it with GatewayStore(opening:).")
    }

    /// Equal when the reasons are, whatever the detail.
    public static func == (lhs: GatewayStartupError, rhs: GatewayStartupError) -> Bool {
        lhs.reason == rhs.reason
    }

    /// Hashes the reason.
    public func hash(into hasher: inout Hasher) { hasher.combine(reason) }

    /// One line: what is wrong, where, and what to do.
    public var description: String {
        if !detail.isEmpty { return detail }
        switch reason {
        case .cardFingerprintSecretUnreadable:
            return "The database's card-fingerprint secret cannot be used; the gateway does not start."
        case .instanceIDMissing:
            return "The database's gateway instance id is missing; the gateway does not start."
        case .plainHTTPBeyondLoopback:
            return "The gateway does not serve plain HTTP on an address other hosts can reach; serve TLS "
                + "or bind loopback."
        case .fingerprintKeyUnusable:
            return "The card-fingerprint key cannot be used; the gateway does not start."
        case .fingerprintKeyMismatch:
            return "The database's card fingerprints were made with another key; the gateway does not start."
        case .fingerprintKeyRequired:
            return "The database still holds its card-fingerprint key and none was given; the gateway does not start."
        }
    }
}
