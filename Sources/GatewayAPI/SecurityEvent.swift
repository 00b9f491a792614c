#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One entry of the gateway's append-only security log (`GET /v1/security-events`): who did
/// what to the merchant's accounts and credentials, and from which address. It never holds a
/// password, token, reset code, key or card number.
public struct SecurityEvent: Codable, Sendable, Hashable {
    /// What happened.
    public enum Kind: String, Codable, Sendable, Hashable, CaseIterable {
        /// A login with a wrong password (or, for the log only, an unknown user).
        case loginFailed = "login.failed"
        /// A login that locked the user, or was refused because the user is locked.
        case loginLocked = "login.locked"
        /// A login refused without a password check because its address must wait.
        case loginThrottled = "login.throttled"
        /// A password-reset code was mailed.
        case passwordResetRequested = "password.reset_requested"
        /// A reset code was redeemed: the password was set and the user's sessions ended.
        case passwordResetRedeemed = "password.reset_redeemed"
        /// The user changed the password; the user's other sessions ended.
        case passwordChanged = "password.changed"
        /// A client token was minted with the API key.
        case clientTokenGranted = "client_token.granted"
        /// A valid credential was refused on a route its kind has no scope for.
        case scopeRefused = "scope.refused"
        /// The webhook URL or secret was changed.
        case webhookConfigChanged = "webhook.config_changed"
        /// A one-time dashboard login link was created.
        case dashboardLinkCreated = "dashboard.login_link_created"
        /// A login registered a device and granted it a device credential.
        case deviceRegistered = "device.registered"
        /// A device was revoked; its sessions ended.
        case deviceRevoked = "device.revoked"
        /// A device credential was refused: unknown, revoked, or a secret already replaced.
        case deviceCredentialRefused = "device.credential_refused"
    }

    /// The event's id.
    public var id: String
    /// When it happened (the gateway's clock).
    public var at: Date
    /// What happened.
    public var kind: Kind
    /// The user concerned, if any.
    public var userID: String?
    /// The client's address, if the event came from a request.
    public var address: String?
    /// A sentence with the particulars (the route refused, the credential's kind).
    public var detail: String

    /// Creates an event.
    public init(id: String, at: Date, kind: Kind, userID: String?, address: String?, detail: String) {
        self.id = id
        self.at = at
        self.kind = kind
        self.userID = userID
        self.address = address
        self.detail = detail
    }
}

/// `GET /v1/security-events`: the merchant's security log, newest first (at most 200).
public struct SecurityEventList: Codable, Sendable, Hashable {
    /// The events, newest first.
    public var events: [SecurityEvent]

    /// Creates a list.
    public init(events: [SecurityEvent]) { self.events = events }
}
