import Foundation
import GatewayAPI

extension SandboxGateway {
    /// Signs an image with the sandbox update key and adds it to the catalogue of the sandbox
    /// database at `configuration.databasePath` (created and migrated if missing), as
    /// `POST /v1/updates` does. A gateway already serving the database offers it at once.
    ///
    /// ```swift
    /// let image = try await SandboxGateway.publishUpdate(
    ///     .init(databasePath: "/tmp/sandbox.sqlite"),
    ///     UpdatePublication(model: "MPOS-1", kind: .firmware, version: "2.1.0"),
    ///     content: try Data(contentsOf: firmwareURL))
    /// print(image.id, image.sha256)
    /// ```
    ///
    /// - Throws: database errors, or ``GatewayError`` for an empty or oversized file, a bad
    ///   model or version (4001), or a version already published (4092).
    public static func publishUpdate(
        _ configuration: SandboxGatewayConfiguration, _ publication: UpdatePublication, content: Data
    ) async throws -> UpdateImage {
        try await GatewayStore.using(configuration) { store in
            try await UpdateCatalogueService(database: store.database, now: configuration.now)
                .publish(publication, content: content)
        }
    }
}
