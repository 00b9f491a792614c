#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import MPOSCore

/// What an update image replaces on a reader.
public enum UpdateKind: String, Codable, Sendable, Hashable, CaseIterable {
    /// The reader's firmware (its payment application).
    case firmware
    /// Its configuration: EMV terminal and application parameters, CA public keys.
    case configuration
}

/// Test and production images are kept apart (the Accept seed: a test image is never installed
/// on a production reader, nor the reverse).
public enum UpdateChannel: String, Codable, Sendable, Hashable, CaseIterable {
    /// Images for test readers.
    case test
    /// Images for production readers.
    case production
}

/// One image in the gateway's terminal-management catalogue, as a reader model's update.
///
/// The gateway signs ``signedMessage`` with its Ed25519 update key; the SDK checks the
/// signature against the key it pins, then the size and SHA-256 of the downloaded bytes, before
/// it writes a byte to the reader.
public struct UpdateImage: Codable, Sendable, Hashable, Identifiable {
    /// The catalogue id (`upd_…`), used to download the file and to confirm the install.
    public var id: String
    /// The reader model it is for (``DeviceInfo``'s model on the reader side).
    public var model: String
    /// Firmware or configuration.
    public var kind: UpdateKind
    /// The version it installs.
    public var version: String
    /// The file's size in bytes.
    public var size: Int64
    /// The file's SHA-256, 64 lower-case hex digits.
    public var sha256: String
    /// The file's MD5, 32 lower-case hex digits (the Accept seed reports it; not a security check).
    public var md5: String
    /// The Ed25519 signature of ``signedMessage``, 128 lower-case hex digits.
    public var signature: String
    /// Test or production.
    public var channel: UpdateChannel
    /// The date after which a reader that has not installed it may not take payments, if any.
    public var deadline: Date?
    /// When it was published.
    public var publishedAt: Date

    /// Creates a catalogue entry.
    public init(
        id: String, model: String, kind: UpdateKind, version: String, size: Int64, sha256: String, md5: String,
        signature: String, channel: UpdateChannel, deadline: Date?, publishedAt: Date
    ) {
        self.id = id
        self.model = model
        self.kind = kind
        self.version = version
        self.size = size
        self.sha256 = sha256
        self.md5 = md5
        self.signature = signature
        self.channel = channel
        self.deadline = deadline
        self.publishedAt = publishedAt
    }

    /// The bytes the signature covers (``UpdateSigning/message(model:kind:version:size:sha256Hex:channel:)``).
    public var signedMessage: [UInt8] {
        Self.signedMessage(
            model: model, kind: kind, version: version, size: size, sha256: sha256, channel: channel)
    }

    /// ``signedMessage`` for the given fields.
    public static func signedMessage(
        model: String, kind: UpdateKind, version: String, size: Int64, sha256: String, channel: UpdateChannel
    ) -> [UInt8] {
        UpdateSigning.message(
            model: model, kind: kind.rawValue, version: version, size: size, sha256Hex: sha256,
            channel: channel.rawValue)
    }
}

/// `POST /v1/terminals/initialize`: the reader logs in with the gateway (the TSM seed's
/// InitializeTerminal). The first call for a serial number registers the reader.
public struct TerminalInitializeRequest: Codable, Sendable, Hashable {
    /// The reader's model.
    public var model: String
    /// The reader's serial number.
    public var serialNumber: String
    /// The firmware version it runs.
    public var firmwareVersion: String
    /// The configuration version it holds.
    public var configurationVersion: String
    /// Test or production reader (production when omitted).
    public var channel: UpdateChannel?

    /// Creates a request.
    public init(
        model: String, serialNumber: String, firmwareVersion: String, configurationVersion: String,
        channel: UpdateChannel? = nil
    ) {
        self.model = model
        self.serialNumber = serialNumber
        self.firmwareVersion = firmwareVersion
        self.configurationVersion = configurationVersion
        self.channel = channel
    }
}

/// The answer to ``TerminalInitializeRequest`` (the TSM seed's EVOTerminalUpdate, and more).
public struct TerminalInitializeResponse: Codable, Sendable, Hashable {
    /// Whether any image of the reader's model and channel is newer than what it runs.
    public var hasUpdates: Bool
    /// The earliest deadline among the pending images, after the grace period; `nil` when none
    /// has one.
    public var updateDeadline: Date?
    /// The pending images, at most one per kind (the newest), configuration first.
    public var pending: [UpdateImage]
    /// When the reader was registered (its first initialization).
    public var registeredAt: Date
    /// Until when deadlines are held off for a newly registered reader (the TSM seed's three
    /// days for a new merchant's readers).
    public var graceUntil: Date
    /// Whether a deadline has passed with its image not installed: payments are refused until
    /// the reader is up to date.
    public var blocked: Bool
    /// The ids of the pending images the reader must install by a deadline: those published
    /// with one, and those that supersede an image the reader lacks that has one. `nil` from a
    /// gateway that does not say (a client then takes the images with a deadline).
    public var required: [String]?

    /// Creates an answer.
    public init(
        hasUpdates: Bool, updateDeadline: Date?, pending: [UpdateImage], registeredAt: Date, graceUntil: Date,
        blocked: Bool, required: [String]? = nil
    ) {
        self.required = required
        self.hasUpdates = hasUpdates
        self.updateDeadline = updateDeadline
        self.pending = pending
        self.registeredAt = registeredAt
        self.graceUntil = graceUntil
        self.blocked = blocked
    }
}

/// `POST /v1/terminals/installs`: a reader confirms it runs an image (the seed's ConfirmUpdate).
public struct InstallConfirmation: Codable, Sendable, Hashable {
    /// The reader's serial number.
    public var serialNumber: String
    /// The installed image's id.
    public var imageID: String

    /// Creates a confirmation.
    public init(serialNumber: String, imageID: String) {
        self.serialNumber = serialNumber
        self.imageID = imageID
    }
}
