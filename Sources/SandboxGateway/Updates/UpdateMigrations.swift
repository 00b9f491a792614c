import GRDB

extension GatewayMigrations {
    /// The terminal-management domain's migrations (append only).
    static let updates: [GatewayMigration] = [
        GatewayMigration("updates-1-catalogue", migrate: UpdateSchema.createCatalogue)
    ]
}

/// The tables of the update catalogue, the readers' registrations and their confirmed installs.
enum UpdateSchema {
    @Sendable static func createCatalogue(_ db: Database) throws {
        // Sandbox-wide: every merchant's readers see the same catalogue.
        try db.create(table: "update_image") { t in
            t.column("id", .text).primaryKey()
            t.column("model", .text).notNull()
            t.column("kind", .text).notNull()
            t.column("version", .text).notNull()
            t.column("channel", .text).notNull()
            t.column("size", .integer).notNull()
            t.column("sha256", .text).notNull()
            t.column("md5", .text).notNull()
            t.column("signature", .text).notNull()
            t.column("deadline", .datetime)
            t.column("published_at", .datetime).notNull()
            t.uniqueKey(["model", "kind", "channel", "version"])
        }
        // The bytes apart from the metadata, so listing the catalogue never reads a file.
        try db.create(table: "update_image_file") { t in
            t.column("image_id", .text).primaryKey().references("update_image", onDelete: .cascade)
            t.column("content", .blob).notNull()
        }
        // A reader is registered per merchant: the same serial under two merchants is two readers.
        try db.create(table: "update_reader") { t in
            t.column("merchant_id", .text).notNull()
            t.column("serial_number", .text).notNull()
            t.column("model", .text).notNull()
            t.column("channel", .text).notNull()
            t.column("firmware_version", .text).notNull()
            t.column("configuration_version", .text).notNull()
            t.column("registered_at", .datetime).notNull()
            t.column("last_seen_at", .datetime).notNull()
            t.primaryKey(["merchant_id", "serial_number"])
        }
        try db.create(table: "update_install") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("merchant_id", .text).notNull()
            t.column("serial_number", .text).notNull()
            t.column("image_id", .text).notNull().references("update_image")
            t.column("installed_at", .datetime).notNull()
            t.foreignKey(
                ["merchant_id", "serial_number"], references: "update_reader",
                columns: ["merchant_id", "serial_number"])
        }
    }
}
