#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a device says of itself when it logs in and asks for a device credential.
public struct DeviceRegistration: Codable, Sendable, Hashable {
    /// A name for people: the merchant sees it in the list of devices (1 to 64 characters).
    public var name: String

    /// Creates a registration.
    public init(name: String) { self.name = name }
}

/// A device's own credential: it renews the device's sessions (`POST /v1/auth/device-session`)
/// without the user's password, so a user locked out, reset or changed does not stop a
/// registered terminal; the merchant revokes it per device. The gateway keeps only a hash of
/// the secret, and replaces the secret at every use.
public struct DeviceCredential: Codable, Sendable, Hashable {
    /// The device's id (`dev_…`), shown in the list of devices.
    public var deviceID: String
    /// The secret (`dr_…`); keep it as a password is kept (the SDK: a 0600 file beside the
    /// journal, or the Keychain).
    public var secret: String

    /// Creates a credential.
    public init(deviceID: String, secret: String) {
        self.deviceID = deviceID
        self.secret = secret
    }
}

/// `POST /v1/auth/device-session`: a device credential for a new session.
public struct DeviceSessionRequest: Codable, Sendable, Hashable {
    /// The device's id.
    public var deviceID: String
    /// The device's current secret.
    public var secret: String

    /// Creates the request.
    public init(deviceID: String, secret: String) {
        self.deviceID = deviceID
        self.secret = secret
    }
}

/// A registered device, as `GET /v1/devices` lists it (never its secret).
public struct Device: Codable, Sendable, Hashable {
    /// The device's id.
    public var id: String
    /// The name it registered with.
    public var name: String
    /// The user whose login registered it.
    public var userID: String?
    /// When it was registered.
    public var createdAt: Date
    /// When it last renewed a session.
    public var lastUsedAt: Date?
    /// When it was revoked; nil while it may renew sessions.
    public var revokedAt: Date?

    /// Creates a device.
    public init(id: String, name: String, userID: String?, createdAt: Date, lastUsedAt: Date?, revokedAt: Date?) {
        self.id = id
        self.name = name
        self.userID = userID
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
    }
}

/// `GET /v1/devices`: the merchant's devices, newest first.
public struct DeviceList: Codable, Sendable, Hashable {
    /// The devices.
    public var devices: [Device]

    /// Creates a list.
    public init(devices: [Device]) { self.devices = devices }
}
