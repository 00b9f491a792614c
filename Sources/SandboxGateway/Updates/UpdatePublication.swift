import Foundation
import GatewayAPI

/// What a publisher states about an image: everything but the bytes and what the gateway
/// computes from them (size, hashes, signature, id).
public struct UpdatePublication: Sendable, Hashable {
    /// The reader model it is for.
    public var model: String
    /// Firmware or configuration.
    public var kind: UpdateKind
    /// The version it installs.
    public var version: String
    /// Test or production (production by default).
    public var channel: UpdateChannel
    /// When readers must have installed it, if ever.
    public var deadline: Date?

    /// Describes an image to publish.
    public init(
        model: String, kind: UpdateKind, version: String, channel: UpdateChannel = .production,
        deadline: Date? = nil
    ) {
        self.model = model
        self.kind = kind
        self.version = version
        self.channel = channel
        self.deadline = deadline
    }
}

/// The text rules of the terminal-management routes.
enum UpdateText {
    /// The longest model, version or serial number accepted.
    static let maximumLength = 64

    /// Whether `text` is 1 to 64 printable ASCII characters, neither starting nor ending with a
    /// space (the OpenAPI document's `^[!-~]([ -~]{0,62}[!-~])?$`).
    static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard (1...maximumLength).contains(bytes.count),
            bytes.allSatisfy({ (0x20...0x7E).contains($0) })
        else { return false }
        return bytes.first != 0x20 && bytes.last != 0x20
    }

    /// Throws 4001 naming `field` when `value` breaks ``isValid(_:)``.
    static func require(_ value: String, _ field: String) throws(GatewayError) {
        guard isValid(value) else {
            throw GatewayError.invalid(
                "'\(field)' must be 1 to \(maximumLength) printable ASCII characters, without a space at either end.")
        }
    }
}
