/// What a route lets its caller do, declared beside each endpoint in ``GatewayRoutes``.
///
/// Every credential carries only the scopes its job needs (PCI DSS 7.2): a person's session
/// may do everything the person may; a client token (handed to a device by the app's backend)
/// and a device's renewed session take payments and read what a terminal needs, and nothing
/// else; the merchant's API key administers. A credential without a route's scope is refused with 403
/// ``GatewayErrorCode/insufficientScope`` before the route reads anything.
///
/// ```swift
/// GatewayRoutes.refund.scope        // .payments: a terminal refunds
/// GatewayRoutes.outbox.scope        // .administration: a client token may not read mail
/// GatewayScope.granted(to: .clientToken).contains(.administration)  // false
/// ```
public enum GatewayScope: String, Sendable, Hashable, Codable, CaseIterable {
    /// Needs no credential: health, the contract, login and the password-reset flow.
    case `public`
    /// Takes payments and their follow-ups (capture, tip, void, reverse, refund, receipts,
    /// signatures, the attempt lookup).
    case payments
    /// Reads what a terminal needs: the merchant, transactions and their statistics, the
    /// inventory, reader registration and updates.
    case terminal
    /// Administers the merchant: the outbox (mail may hold one-time codes), webhooks, users
    /// and passwords, API keys and client tokens, update policy, merchants, dashboard links,
    /// settlement and the inventory's contents.
    case administration

    /// The scopes a credential of `kind` carries.
    public static func granted(to kind: GatewayCredentialKind) -> Set<GatewayScope> {
        switch kind {
        case .userSession: [.public, .payments, .terminal, .administration]
        case .clientToken, .deviceSession: [.public, .payments, .terminal]
        case .apiKey: [.public, .administration]
        }
    }
}

/// The kinds of credential the gateway accepts, each for one job.
public enum GatewayCredentialKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A person's session, from logging in with a user id and password.
    case userSession
    /// A short-lived token an app's backend mints with the API key and hands to a device.
    case clientToken
    /// A session a registered device renewed with its device credential, without a password.
    case deviceSession
    /// The merchant's API key (`X-API-Key`).
    case apiKey
}
