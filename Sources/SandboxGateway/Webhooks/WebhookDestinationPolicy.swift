/// Where the gateway may post webhooks and payment callbacks, decided on the addresses a
/// URL's host resolves to: public addresses always; loopback and private ranges only in the
/// scopes allowed; link-local, cloud metadata and reserved addresses never.
///
/// Checked when a URL is configured and again before each delivery, so that neither a
/// spelling of the host nor a DNS answer that changed in between reaches an internal service.
///
/// ```swift
/// var configuration = SandboxGatewayConfiguration(host: "0.0.0.0")
/// configuration.webhookDestinations = WebhookDestinationPolicy(allowing: [.privateNetworks])
/// ```
public struct WebhookDestinationPolicy: Sendable, Hashable {
    /// A group of addresses refused unless allowed (`mpos gateway serve --allow-webhooks-to`).
    public enum Scope: String, Sendable, Hashable, CaseIterable {
        /// 127.0.0.0/8, ::1, 0.0.0.0/8 and ::: services on the gateway's own host.
        case loopback
        /// 10/8, 172.16/12, 192.168/16, 100.64/10, 198.18/15, fc00::/7 and fec0::/10. Never
        /// link-local or cloud metadata addresses.
        case privateNetworks = "private"
    }

    /// The scopes allowed whatever the gateway listens on.
    public var allowed: Set<Scope>
    /// Whether loopback is allowed too while the gateway listens on a loopback address only
    /// (the local sandbox, where the receiver runs beside it); `true` by default.
    public var allowsLoopbackWhileListeningOnLoopback: Bool

    /// A policy allowing `allowed` (none by default: public addresses only, and loopback while
    /// the gateway listens on loopback).
    public init(allowing allowed: Set<Scope> = [], loopbackWhileListeningOnLoopback: Bool = true) {
        self.allowed = allowed
        self.allowsLoopbackWhileListeningOnLoopback = loopbackWhileListeningOnLoopback
    }

    /// Public addresses only, whatever the gateway listens on.
    public static let publicOnly = WebhookDestinationPolicy(loopbackWhileListeningOnLoopback: false)

    /// The scopes in force for a gateway bound to `host`: ``allowed``, plus loopback when the
    /// host is a loopback address (`127.0.0.1`, `::1`, `localhost`) and
    /// ``allowsLoopbackWhileListeningOnLoopback`` is set.
    public func scopes(listeningOn host: String) -> Set<Scope> {
        guard allowsLoopbackWhileListeningOnLoopback, Self.isLoopback(host: host) else { return allowed }
        return allowed.union([.loopback])
    }

    /// Whether a bind address reaches this host only.
    static func isLoopback(host: String) -> Bool {
        if host.lowercased() == "localhost" { return true }
        guard let address = WebhookAddress(host) else { return false }
        // 0.0.0.0 and :: listen on every interface: not the local sandbox.
        return address.isIPv6
            ? address.bytes == Array(repeating: 0, count: 15) + [1] : address.bytes[0] == 127
    }

    /// Why `address` may not be posted to with `scopes` in force, or `nil` when it may.
    public static func refusal(for address: WebhookAddress, scopes: Set<Scope>) -> WebhookDestinationRefusal?
    {
        switch address.kind {
        case .public: nil
        case .loopback: scopes.contains(.loopback) ? nil : .loopback
        case .privateNetwork: scopes.contains(.privateNetworks) ? nil : .privateNetwork
        case .linkLocal: .linkLocal
        case .cloudMetadata: .cloudMetadata
        case .reserved: .reserved
        }
    }

    /// Why a host that resolved to `addresses` may not be posted to, or `nil` when it may:
    /// every address must be allowed, as the connection could go to any of them.
    public static func refusal(for addresses: [WebhookAddress], scopes: Set<Scope>)
        -> WebhookDestinationRefusal?
    {
        guard !addresses.isEmpty else { return .unresolvable }
        return addresses.lazy.compactMap { refusal(for: $0, scopes: scopes) }.first
    }
}
