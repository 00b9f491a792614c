import Crypto
import Foundation
import GRDB
import GatewayAPI

/// The sandbox's update catalogue: publishes signed images and serves their metadata and
/// bytes. The catalogue is sandbox-wide; images and bytes live in the gateway's one SQLite
/// file, so the file is the whole sandbox.
public struct UpdateCatalogueService: Sendable {
    /// The largest image accepted: 32 MiB.
    public static let maximumFileSize = 32 * 1024 * 1024

    /// The gateway's database.
    public let database: any GatewayDatabase
    /// The current time (the gateway's injected clock).
    public let now: @Sendable () -> Date

    /// Creates the service.
    public init(database: any GatewayDatabase, now: @escaping @Sendable () -> Date) {
        self.database = database
        self.now = now
    }

    /// Signs and stores an image.
    ///
    /// - Returns: the catalogue entry, with size, SHA-256, MD5 and the sandbox key's signature.
    /// - Throws: ``GatewayError`` 4001 for an empty or oversized file or a model or version that
    ///   is not 1 to 64 printable characters; 4092 when the version is already published for
    ///   the model, kind and channel.
    public func publish(_ publication: UpdatePublication, content: Data) async throws -> UpdateImage {
        try UpdateText.require(publication.model, "model")
        try UpdateText.require(publication.version, "version")
        guard !content.isEmpty else { throw GatewayError.invalid("The image file is empty.") }
        guard content.count <= Self.maximumFileSize else {
            throw GatewayError(
                code: GatewayErrorCode.bodyTooLarge, "The image exceeds \(Self.maximumFileSize) bytes.")
        }
        let sha256 = Secrets.hex(SHA256.hash(data: content))
        let md5 = Secrets.hex(Insecure.MD5.hash(data: content))
        let size = Int64(content.count)
        let signature = try SandboxUpdateSigning.signatureHex(
            of: UpdateImage.signedMessage(
                model: publication.model, kind: publication.kind, version: publication.version, size: size,
                sha256: sha256, channel: publication.channel))
        let image = UpdateImage(
            id: Secrets.newID(prefix: "upd_"), model: publication.model, kind: publication.kind,
            version: publication.version, size: size, sha256: sha256, md5: md5, signature: signature,
            channel: publication.channel, deadline: publication.deadline,
            // Whole seconds, as the wire carries it: the answer to this request and every later
            // listing (read back from the database) then name the same instant.
            publishedAt: Date(timeIntervalSince1970: now().timeIntervalSince1970.rounded(.down)))
        try await database.write { db in
            let taken = try db.fetchValue(Bool.self, sql: "SELECT 1 AS taken FROM update_image WHERE model = ? AND kind = ? AND channel = ? AND version = ?",
                arguments: [image.model, image.kind.rawValue, image.channel.rawValue, image.version]) ?? false
            guard !taken else {
                throw GatewayError.invalidState(
                    "Version \(image.version) of the \(image.model) \(image.kind.rawValue) is already published on the \(image.channel.rawValue) channel."
                )
            }
            try db.execute(
                sql: """
                    INSERT INTO update_image
                      (id, model, kind, version, channel, size, sha256, md5, signature, deadline, published_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    image.id, image.model, image.kind.rawValue, image.version, image.channel.rawValue, image.size,
                    image.sha256, image.md5, image.signature, image.deadline, image.publishedAt,
                ])
            try db.execute(
                sql: "INSERT INTO update_image_file (image_id, content) VALUES (?, ?)",
                arguments: [image.id, content])
        }
        return image
    }

    /// Every image, newest published first.
    public func images() async throws -> [UpdateImage] {
        try await database.read { db in
            try db.fetchAll(sql: "SELECT * FROM update_image ORDER BY published_at DESC, \(db.dialect.rowOrder) DESC")
                .compactMap(Self.image(from:))
        }
    }

    /// One image, or `nil` when no image has this id.
    public func image(id: String) async throws -> UpdateImage? {
        try await database.read { db in
            try db.fetchOne(sql: "SELECT * FROM update_image WHERE id = ?", arguments: [id])
                .flatMap(Self.image(from:))
        }
    }

    /// `length` bytes of an image's file from `offset` (the caller keeps them within its size).
    public func bytes(of id: String, offset: Int64, length: Int64) async throws -> Data {
        try await database.read { db in
            // substr on a blob counts bytes, from 1.
            try db.fetchValue(Data.self, sql: "SELECT \(db.dialect.blobRange("content", from: "?", length: "?")) AS part FROM update_image_file WHERE image_id = ?",
                arguments: [offset + 1, length, id]) ?? Data()
        }
    }

    /// The images of one model and channel, for a reader's pending updates.
    static func images(model: String, channel: UpdateChannel, in db: any SQLSession) throws -> [UpdateImage] {
        try db.fetchAll(sql: "SELECT * FROM update_image WHERE model = ? AND channel = ?",
            arguments: [model, channel.rawValue]
        ).compactMap(image(from:))
    }

    static func image(from row: Row) -> UpdateImage? {
        guard let kind = UpdateKind(rawValue: row["kind"]), let channel = UpdateChannel(rawValue: row["channel"])
        else { return nil }
        return UpdateImage(
            id: row["id"], model: row["model"], kind: kind, version: row["version"], size: row["size"],
            sha256: row["sha256"], md5: row["md5"], signature: row["signature"], channel: channel,
            deadline: row["deadline"], publishedAt: row["published_at"])
    }
}
