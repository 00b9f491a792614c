import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `PUT /v1/inventory`: replace the merchant's inventory with a CSV file.
public struct InventoryUploadRequest: Codable, Sendable, Hashable {
    /// The new version; must be greater than the current one.
    public var version: Int
    /// The CSV text (header line first), at most the body limit.
    public var csv: String

    /// Creates the request.
    public init(version: Int, csv: String) {
        self.version = version
        self.csv = csv
    }
}
