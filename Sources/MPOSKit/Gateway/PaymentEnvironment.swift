import Foundation
import GatewayAPI
import MPOSCore

/// Where a terminal's payments go: a named environment (the ECP seed's `"SBX"` and
/// `"PROD"`) at a base URL.
///
/// ```swift
/// let terminal = try PaymentTerminal(
///     environment: .sandbox, credentials: .login(user: "merchant", password: "…"),
///     journalPath: journalFile)
/// let live = try PaymentEnvironment.production(URL(string: "https://gateway.example")!)
/// ```
///
/// The name is a promise the terminal checks: at login it refuses a gateway that says it is
/// of the other kind (``MPOSError/environmentMismatch``), so an app built for production
/// never takes "payments" on a sandbox, and test runs never reach a gateway that charges.
public struct PaymentEnvironment: Sendable, Hashable {
    /// Sandbox or production.
    public let name: EnvironmentName
    /// The gateway's base URL.
    public let url: URL

    /// The sandbox a developer runs on this machine: `mpos gateway serve` listens on
    /// `http://127.0.0.1:8080` unless told otherwise.
    public static let sandbox = PaymentEnvironment(unchecked: .sandbox, url: URL(string: "http://127.0.0.1:8080")!)

    /// A sandbox at `url` (any scheme: a sandbox on the LAN often has no certificate).
    public static func sandbox(_ url: URL) -> PaymentEnvironment { PaymentEnvironment(unchecked: .sandbox, url: url) }

    /// A production gateway at `url`.
    ///
    /// - Throws: ``MPOSError/invalidEnvironment`` unless `url` is `https` with a host: a
    ///   gateway that charges cards is never reached in the clear.
    public static func production(_ url: URL) throws(MPOSError) -> PaymentEnvironment {
        try PaymentEnvironment(.production, url: url)
    }

    /// An environment by name, as the ECP seed's `initialize` takes it (`"SBX"`, `"PROD"`, or
    /// `"sandbox"`, `"production"`), at `url`; the sandbox defaults to ``sandbox``'s URL.
    ///
    /// - Throws: ``MPOSError/invalidEnvironment`` for another name, for production without a
    ///   URL, or for a production URL that is not `https`.
    public init(named name: String, url: URL? = nil) throws(MPOSError) {
        guard let known = EnvironmentName(named: name) else {
            throw MPOSError.invalidEnvironment.withMessage(
                "\"\(name.prefix(40))\" is not an environment: use SBX (sandbox) or PROD (production).")
        }
        guard let url = url ?? (known == .sandbox ? Self.sandbox.url : nil) else {
            throw MPOSError.invalidEnvironment.withMessage("A production environment needs the gateway's URL.")
        }
        try self.init(known, url: url)
    }

    /// An environment of `name` at `url`.
    ///
    /// - Throws: ``MPOSError/invalidEnvironment`` for a production URL that is not `https`
    ///   with a host.
    public init(_ name: EnvironmentName, url: URL) throws(MPOSError) {
        if name == .production, url.scheme?.lowercased() != "https" || (url.host ?? "").isEmpty {
            throw MPOSError.invalidEnvironment.withMessage(
                "A production gateway is reached over https only, not \(url.scheme ?? "a URL without a scheme").")
        }
        self.init(unchecked: name, url: url)
    }

    private init(unchecked name: EnvironmentName, url: URL) {
        self.name = name
        self.url = url
    }

    /// Whether a gateway that describes itself as `merchant` does may serve this environment:
    /// one that does not say is taken at its word of the URL.
    func admits(_ merchant: MerchantInfo) -> Bool { merchant.environment.map { $0 == name } ?? true }
}
