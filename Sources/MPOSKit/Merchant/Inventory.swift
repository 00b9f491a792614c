import GatewayAPI
import MPOSCore

/// The merchant's inventory (a CSV file of articles), kept by the gateway in versions;
/// reached as ``PaymentTerminal/inventory``.
public struct Inventory: Sendable {
    let client: GatewayClient

    /// The largest inventory file the gateway accepts, in bytes.
    public static let maximumBytes = 2 * 1024 * 1024

    /// Uploads `csv` (a header line, then one line per article) as inventory `version`.
    ///
    /// ```swift
    /// let stored = try await terminal.inventory.upload(csv: "sku,name,price\nA1,Coffee,250\n", version: 2)
    /// ```
    ///
    /// - Returns: the version as the gateway recorded it (row count and SHA-256).
    /// - Throws: ``MPOSError/invalidInventory`` for an empty or too large file or a version
    ///   below 1 (before any request), or when the gateway refuses the CSV or the version
    ///   is not above the current one; ``MPOSError/notLoggedIn``;
    ///   ``MPOSError/gatewayUnreachable``.
    public func upload(csv: String, version: Int) async throws(MPOSError) -> InventoryVersion {
        guard version >= 1 else {
            throw MPOSError.invalidInventory.withMessage("The version must be 1 or more.")
        }
        guard !csv.isEmpty else {
            throw MPOSError.invalidInventory.withMessage("The inventory file is empty.")
        }
        guard csv.utf8.count <= Self.maximumBytes else {
            throw MPOSError.invalidInventory.withMessage(
                "The inventory file is larger than \(Self.maximumBytes) bytes.")
        }
        guard await client.isLoggedIn else { throw MPOSError.notLoggedIn }
        let response = try await client.call(
            GatewayRoutes.uploadInventory, body: InventoryUploadRequest(version: version, csv: csv))
        return try client.decode(response, as: InventoryVersion.self) { status, body in
            guard [400, 409, 413, 422].contains(status) else { return nil }
            return MPOSError.invalidInventory.withMessage(
                body?.message ?? "The gateway refused the inventory.")
        }
    }

    /// The current inventory's version, or `nil` when none was uploaded yet.
    ///
    /// - Throws: ``MPOSError/notLoggedIn``, ``MPOSError/gatewayUnreachable``.
    public func currentVersion() async throws(MPOSError) -> InventoryVersion? {
        guard await client.isLoggedIn else { throw MPOSError.notLoggedIn }
        do {
            return try client.decode(
                try await client.call(GatewayRoutes.inventoryVersion), as: InventoryVersion.self)
        } catch  where error.code == MPOSError.Code.notFound {
            return nil
        }
    }

    /// Downloads the current inventory: its version and the CSV as uploaded.
    ///
    /// - Throws: ``MPOSError/notFound`` when none was uploaded, ``MPOSError/notLoggedIn``,
    ///   ``MPOSError/gatewayUnreachable``.
    public func download() async throws(MPOSError) -> InventoryDocument {
        guard await client.isLoggedIn else { throw MPOSError.notLoggedIn }
        return try client.decode(
            try await client.call(GatewayRoutes.downloadInventory), as: InventoryDocument.self)
    }
}
