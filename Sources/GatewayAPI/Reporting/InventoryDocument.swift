import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `GET /v1/inventory`: the current inventory.
public struct InventoryDocument: Codable, Sendable, Hashable {
    /// Its version.
    public var version: InventoryVersion
    /// The CSV text.
    public var csv: String

    /// Creates a document.
    public init(version: InventoryVersion, csv: String) {
        self.version = version
        self.csv = csv
    }
}
