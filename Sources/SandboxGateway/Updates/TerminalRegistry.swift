import Foundation
import GRDB
import GatewayAPI

/// Readers known to the terminal management, per merchant: registered at their first
/// initialization or card payment, with the versions they last reported and the installs
/// they confirmed. A card payment on a reader past an update's deadline is refused
/// (``admitPayment(merchant:reader:takenAt:now:in:)``).
public struct TerminalRegistry: Sendable {
    /// The gateway's database.
    public let database: any GatewayDatabase
    /// The current time (the gateway's injected clock).
    public let now: @Sendable () -> Date

    /// Creates the registry.
    public init(database: any GatewayDatabase, now: @escaping @Sendable () -> Date) {
        self.database = database
        self.now = now
    }

    /// Registers the reader on its first call, records the versions it reports on every call,
    /// and answers what it must install (``UpdatePending``).
    ///
    /// - Throws: ``GatewayError`` 4001 for a field that is not 1 to 64 printable characters;
    ///   4092 when the serial number is registered for this merchant with another model or
    ///   channel.
    public func initialize(merchant: String, _ request: TerminalInitializeRequest) async throws
        -> TerminalInitializeResponse
    {
        try UpdateText.require(request.model, "model")
        try UpdateText.require(request.serialNumber, "serialNumber")
        try UpdateText.require(request.firmwareVersion, "firmwareVersion")
        try UpdateText.require(request.configurationVersion, "configurationVersion")
        let channel = request.channel ?? .production
        let time = now()
        return try await database.write { db in
            if let row = try Self.reader(merchant: merchant, serial: request.serialNumber, in: db) {
                let model: String = row["model"]
                let registered: String = row["channel"]
                guard model == request.model, registered == channel.rawValue else {
                    throw GatewayError.invalidState(
                        "Reader \(request.serialNumber) is registered as a \(model) on the \(registered) channel.")
                }
                try db.execute(
                    sql: """
                        UPDATE update_reader SET firmware_version = ?, configuration_version = ?, last_seen_at = ?
                        WHERE merchant_id = ? AND serial_number = ?
                        """,
                    arguments: [
                        request.firmwareVersion, request.configurationVersion, time, merchant, request.serialNumber,
                    ])
            } else {
                try Self.register(merchant: merchant, request, channel: channel, at: time, in: db)
            }
            return try Self.answer(merchant: merchant, serial: request.serialNumber, now: time, in: db)
        }
    }

    /// Registers a reader this merchant never saw, with the versions it reports, at `time`.
    static func register(
        merchant: String, _ request: TerminalInitializeRequest, channel: UpdateChannel, at time: Date, in db: any SQLSession
    ) throws {
        try db.execute(
            sql: """
                INSERT INTO update_reader (merchant_id, serial_number, model, channel, firmware_version,
                  configuration_version, registered_at, last_seen_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                merchant, request.serialNumber, request.model, channel.rawValue, request.firmwareVersion,
                request.configurationVersion, time, time,
            ])
    }

    /// Records that the reader installed the image, counts the image's version as the reader's
    /// for its kind (when newer than the one reported), and answers what is still pending.
    ///
    /// - Throws: ``GatewayError`` 4040 for a reader this merchant never initialized or an
    ///   unknown image; 4001 for an image of another model or channel than the reader's.
    public func confirmInstall(merchant: String, _ confirmation: InstallConfirmation) async throws
        -> TerminalInitializeResponse
    {
        let time = now()
        return try await database.write { db in
            guard let reader = try Self.reader(merchant: merchant, serial: confirmation.serialNumber, in: db) else {
                throw GatewayError.notFound("No reader \(confirmation.serialNumber) was initialized by this merchant.")
            }
            guard
                let image = try db.fetchOne(sql: "SELECT * FROM update_image WHERE id = ?", arguments: [confirmation.imageID]
                ).flatMap(UpdateCatalogueService.image(from:))
            else { throw GatewayError.notFound("No update image \(confirmation.imageID).") }
            let model: String = reader["model"]
            let channel: String = reader["channel"]
            guard image.model == model, image.channel.rawValue == channel else {
                throw GatewayError.invalid(
                    "Image \(image.id) is for a \(image.model) on the \(image.channel.rawValue) channel; reader \(confirmation.serialNumber) is a \(model) on the \(channel) channel."
                )
            }
            try db.execute(
                sql: "INSERT INTO update_install (merchant_id, serial_number, image_id, installed_at) VALUES (?, ?, ?, ?)",
                arguments: [merchant, confirmation.serialNumber, image.id, time])
            let column = image.kind == .firmware ? "firmware_version" : "configuration_version"
            let current: String = reader[column]
            if UpdateVersion.isNewer(image.version, than: current) {
                try db.execute(
                    sql: "UPDATE update_reader SET \(column) = ? WHERE merchant_id = ? AND serial_number = ?",
                    arguments: [image.version, merchant, confirmation.serialNumber])
            }
            return try Self.answer(merchant: merchant, serial: confirmation.serialNumber, now: time, in: db)
        }
    }

    /// The installs a reader confirmed, oldest first, as image ids and times.
    public func installs(merchant: String, serialNumber: String) async throws -> [(imageID: String, at: Date)] {
        try await database.read { db in
            try db.fetchAll(sql: """
                    SELECT image_id, installed_at FROM update_install
                    WHERE merchant_id = ? AND serial_number = ? ORDER BY id
                    """, arguments: [merchant, serialNumber]
            ).map { (imageID: $0["image_id"], at: $0["installed_at"]) }
        }
    }

    /// The reader's row, if this merchant registered it.
    static func reader(merchant: String, serial: String, in db: any SQLSession) throws -> Row? {
        try db.fetchOne(sql: "SELECT * FROM update_reader WHERE merchant_id = ? AND serial_number = ?",
            arguments: [merchant, serial])
    }

    private static func answer(merchant: String, serial: String, now: Date, in db: any SQLSession) throws
        -> TerminalInitializeResponse
    {
        guard let row = try reader(merchant: merchant, serial: serial, in: db) else { throw GatewayError.internalError() }
        return try pending(for: row, now: now, in: db)
    }

    /// What an `update_reader` row has pending in the catalogue, as initialization answers it.
    static func pending(for row: Row, now: Date, in db: any SQLSession) throws -> TerminalInitializeResponse {
        guard let channel = UpdateChannel(rawValue: row["channel"]) else { throw GatewayError.internalError() }
        let reader = UpdatePending.Reader(
            firmwareVersion: row["firmware_version"], configurationVersion: row["configuration_version"],
            registeredAt: row["registered_at"])
        let images = try UpdateCatalogueService.images(model: row["model"], channel: channel, in: db)
        return UpdatePending.answer(for: reader, images: images, now: now)
    }
}
