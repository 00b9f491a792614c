import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The current inventory's version.
public struct InventoryVersion: Codable, Sendable, Hashable {
    /// The version number.
    public var version: Int
    /// When it was uploaded.
    public var uploadedAt: Date
    /// Number of data rows (lines after the header).
    public var itemCount: Int
    /// SHA-256 of the CSV bytes, lower-case hex.
    public var sha256: String

    /// Creates a version record.
    public init(version: Int, uploadedAt: Date, itemCount: Int, sha256: String) {
        self.version = version
        self.uploadedAt = uploadedAt
        self.itemCount = itemCount
        self.sha256 = sha256
    }
}
