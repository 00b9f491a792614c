/// Why a sandbox gateway refused to start (on its database, or on its address): thrown by
/// ``SandboxGateway/start(_:)`` before it binds anything. Its description is one line fit for
/// a terminal.
///
/// Match a reason with `==` (``cardFingerprintSecretUnreadable``); the description adds the
/// database path and what was found.
public struct GatewayStartupError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Reason: Hashable, Sendable {
        case cardFingerprintSecretUnreadable
        case instanceIDMissing
        case plainHTTPBeyondLoopback
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
        }
    }
}
