#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MPOSCore

/// `POST /v1/auth/login`: a user's credentials.
public struct LoginRequest: Codable, Sendable, Hashable {
    /// The user id.
    public var user: String
    /// The password.
    public var password: String
    /// The device logging in, when it wants a device credential to renew its sessions with
    /// (the SDK sends it; a person in a browser does not).
    public var device: DeviceRegistration?

    /// Creates a login request.
    public init(user: String, password: String, device: DeviceRegistration? = nil) {
        self.user = user
        self.password = password
        self.device = device
    }
}

/// A logged-in session: the access token, when it lapses and whose it is.
///
/// The token's expiry slides: every authenticated request extends it by the gateway's
/// session lifetime, so it lapses only after that long without activity.
public struct Session: Codable, Sendable, Hashable {
    /// The opaque access token for `Authorization: Bearer`.
    public var accessToken: String
    /// When the token lapses unless used before.
    public var expiresAt: Date
    /// The merchant the user belongs to.
    public var merchant: MerchantInfo
    /// The merchant's offline limits, which the SDK keeps with the session.
    public var offlinePolicy: OfflinePolicyTerms?
    /// The gateway's date and time when it answered: the SDK refuses payments on a device
    /// whose clock is off it (docs/device-checks.md). Nil from a gateway that does not say.
    public var gatewayTime: Date?
    /// The device's credential, when the login registered a device or renewed with one: the
    /// next renewal presents it (the secret changes at every use). Nil otherwise.
    public var deviceCredential: DeviceCredential?

    /// Creates a session.
    public init(
        accessToken: String, expiresAt: Date, merchant: MerchantInfo, offlinePolicy: OfflinePolicyTerms? = nil,
        gatewayTime: Date? = nil, deviceCredential: DeviceCredential? = nil
    ) {
        self.deviceCredential = deviceCredential
        self.offlinePolicy = offlinePolicy
        self.gatewayTime = gatewayTime
        self.accessToken = accessToken
        self.expiresAt = expiresAt
        self.merchant = merchant
    }
}

/// `GET /v1/merchant`: the caller's merchant and user.
public struct MerchantInfo: Codable, Sendable, Hashable {
    /// The merchant's identifier.
    public var id: String
    /// The merchant's trading name, printed on receipts.
    public var name: String
    /// The merchant's default currency.
    public var currency: Currency
    /// ISO 3166-1 alpha-2 country code, such as `"DE"`.
    public var country: String
    /// The merchant category code (MCC), four digits.
    public var categoryCode: String
    /// The postal address printed on receipts.
    public var address: String?
    /// The user id of the caller, `nil` when authenticated with a client token or API key.
    public var userID: String?
    /// The gateway's instance id: created with its database and kept across restarts, ports
    /// and proxies, so that a terminal's journal binds to the gateway rather than to a URL.
    /// `nil` from a gateway that does not say.
    public var gatewayInstanceID: String?
    /// Whether the gateway is a sandbox or charges cards; `nil` from a gateway that does not say.
    /// A terminal made for one refuses to log in to the other.
    public var environment: EnvironmentName?

    /// Creates merchant information.
    public init(
        id: String, name: String, currency: Currency, country: String, categoryCode: String,
        address: String? = nil, userID: String? = nil, gatewayInstanceID: String? = nil,
        environment: EnvironmentName? = nil
    ) {
        self.gatewayInstanceID = gatewayInstanceID
        self.environment = environment
        self.id = id
        self.name = name
        self.currency = currency
        self.country = country
        self.categoryCode = categoryCode
        self.address = address
        self.userID = userID
    }
}

/// `POST /v1/auth/forgot-user-id`: mail the user id(s) registered for an e-mail address.
///
/// The gateway answers 202 whether or not the address is known, so the route cannot be used
/// to find out which addresses have accounts.
public struct ForgotUserIDRequest: Codable, Sendable, Hashable {
    /// The e-mail address the user registered.
    public var email: String

    /// Creates the request.
    public init(email: String) { self.email = email }
}

/// `POST /v1/auth/reset-password`: mail a temporary password to the user's address.
///
/// Answers 202 whether or not the user exists.
public struct ResetPasswordRequest: Codable, Sendable, Hashable {
    /// The user id.
    public var user: String

    /// Creates the request.
    public init(user: String) { self.user = user }
}

/// `POST /v1/auth/reset-password/confirm`: set a new password with the one-time code that
/// `POST /v1/auth/reset-password` mailed.
///
/// A code is used once and expires 30 minutes after it was sent; a newer request replaces it.
/// The new password follows the policy of ``ChangePasswordRequest``.
public struct ConfirmPasswordResetRequest: Codable, Sendable, Hashable {
    /// The code from the e-mail.
    public var code: String
    /// The new password.
    public var newPassword: String
    /// The new password typed a second time.
    public var confirmation: String

    /// Creates the request.
    public init(code: String, newPassword: String, confirmation: String) {
        self.code = code
        self.newPassword = newPassword
        self.confirmation = confirmation
    }
}

/// `POST /v1/auth/change-password`: replace the caller's password.
///
/// The new password must have at least 8 characters, at least one letter and one digit,
/// differ from the user id, and equal its confirmation.
public struct ChangePasswordRequest: Codable, Sendable, Hashable {
    /// The current password.
    public var oldPassword: String
    /// The new password.
    public var newPassword: String
    /// The new password typed a second time.
    public var confirmation: String

    /// Creates the request.
    public init(oldPassword: String, newPassword: String, confirmation: String) {
        self.oldPassword = oldPassword
        self.newPassword = newPassword
        self.confirmation = confirmation
    }
}

/// A plain "accepted" answer for routes that only start something (an e-mail, a receipt).
public struct Acknowledgement: Codable, Sendable, Hashable {
    /// Always `true`.
    public var accepted: Bool
    /// A human-readable note.
    public var message: String?

    /// Creates an acknowledgement.
    public init(accepted: Bool = true, message: String? = nil) {
        self.accepted = accepted
        self.message = message
    }
}

/// The channel of an outgoing message.
public enum MessageChannel: String, Codable, Sendable, Hashable, CaseIterable {
    /// E-mail.
    case email
    /// Text message.
    case sms
}

/// One message the sandbox "sent": the gateway sends nothing, it writes the message to its
/// outbox for the developer to read.
public struct OutboxMessage: Codable, Sendable, Hashable {
    /// The message id.
    public var id: String
    /// E-mail or SMS.
    public var channel: MessageChannel
    /// The recipient's address or phone number.
    public var recipient: String
    /// The subject (empty for SMS).
    public var subject: String
    /// The text.
    public var body: String
    /// When it was written.
    public var createdAt: Date

    /// Creates an outbox message.
    public init(
        id: String, channel: MessageChannel, recipient: String, subject: String, body: String,
        createdAt: Date
    ) {
        self.id = id
        self.channel = channel
        self.recipient = recipient
        self.subject = subject
        self.body = body
        self.createdAt = createdAt
    }
}

/// `GET /v1/outbox`: the caller's merchant's messages, newest first.
public struct OutboxList: Codable, Sendable, Hashable {
    /// The messages, newest first.
    public var messages: [OutboxMessage]

    /// Creates a list.
    public init(messages: [OutboxMessage]) { self.messages = messages }
}

/// `POST /v1/client-tokens`: optional parameters of a client token (the body may be empty).
public struct ClientTokenRequest: Codable, Sendable, Hashable {
    /// Requested lifetime in seconds; the gateway clamps it to 60...3600 and defaults to 900.
    public var lifetimeSeconds: Int?

    /// Creates the request.
    public init(lifetimeSeconds: Int? = nil) { self.lifetimeSeconds = lifetimeSeconds }
}

/// A short-lived token for an SDK, minted by the merchant's backend with its API key (the
/// client token block of the ECP SDK), used as `Authorization: Bearer`. Its expiry does not
/// slide.
public struct ClientToken: Codable, Sendable, Hashable {
    /// The opaque token.
    public var token: String
    /// When it lapses.
    public var expiresAt: Date
    /// The merchant it acts for.
    public var merchantID: String

    /// Creates a client token.
    public init(token: String, expiresAt: Date, merchantID: String) {
        self.token = token
        self.expiresAt = expiresAt
        self.merchantID = merchantID
    }
}
