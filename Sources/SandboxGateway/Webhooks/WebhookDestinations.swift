import Foundation

/// The destination check as the gateway runs it: a URL's host resolved, and every address it
/// resolved to held to the policy's scopes. The same check runs when a URL is configured (the
/// webhook's, a payment's callback) and before each delivery, which then connects to the
/// address checked.
public struct WebhookDestinations: Sendable {
    /// The scopes in force (``WebhookDestinationPolicy/scopes(listeningOn:)``).
    public let scopes: Set<WebhookDestinationPolicy.Scope>
    let resolver: any WebhookHostResolver

    /// The check for a gateway bound to `host` with `policy`.
    public init(policy: WebhookDestinationPolicy, listeningOn host: String) {
        self.init(scopes: policy.scopes(listeningOn: host), resolver: SystemWebhookHostResolver())
    }

    init(
        scopes: Set<WebhookDestinationPolicy.Scope>,
        resolver: any WebhookHostResolver = SystemWebhookHostResolver()
    ) {
        self.scopes = scopes
        self.resolver = resolver
    }

    /// The address to connect to for `url`: the first its host resolves to, once every one has
    /// passed the policy.
    ///
    /// - Throws: ``WebhookDestinationRefusal``: the URL has no http(s) scheme or host or carries
    ///   a user or password, the host does not resolve, or an address is one the policy refuses.
    public func address(for url: URL) async throws(WebhookDestinationRefusal) -> WebhookAddress {
        guard let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = url.host(percentEncoded: false), !host.isEmpty,
            url.user(percentEncoded: false) == nil, url.password(percentEncoded: false) == nil
        else { throw .malformedURL }
        let addresses = await resolver.addresses(of: host)
        if let refusal = WebhookDestinationPolicy.refusal(for: addresses, scopes: scopes) { throw refusal }
        return addresses[0]
    }

    /// Checks a URL being configured (text as the request gave it).
    ///
    /// - Throws: ``GatewayError`` 400 naming `field`, never the URL:
    ///   ``GatewayAPI/GatewayErrorCode/webhookDestinationRefused`` for a host that does not
    ///   resolve or resolves to an address the policy refuses,
    ///   ``GatewayAPI/GatewayErrorCode/invalidValue`` for a URL that is not one.
    public func check(_ text: String, field: String) async throws(GatewayError) {
        guard let url = URL(string: text) else {
            throw WebhookDestinationRefusal.malformedURL.gatewayError(field: field)
        }
        try await check(url, field: field)
    }

    /// Checks a URL being configured, as the text overload does.
    public func check(_ url: URL, field: String) async throws(GatewayError) {
        do throws(WebhookDestinationRefusal) { _ = try await address(for: url) } catch {
            throw error.gatewayError(field: field)
        }
    }
}
