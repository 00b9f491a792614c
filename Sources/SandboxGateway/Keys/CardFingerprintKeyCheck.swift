import Foundation
import GRDB
import Synchronization

/// What opening a database was told about the card-fingerprint key, and the key it settled on.
///
/// Two steps around the migrations:
/// - ``resolve(_:)``, before them: a database made by an older version still holds its key in
///   `payment_secret`, which the migration `payments-11-fingerprint-key-apart` drops. The key
///   given must be that one (or name it as previous, to rotate); with no key given but a key
///   file to create, the database's key is moved to that file first, so existing fingerprints
///   keep matching.
/// - ``record(in:)``, after them: the database keeps the id of the key its fingerprints are
///   made with (``CardFingerprintKey/id``, one-way), and a start with another key is refused
///   unless that key names the recorded one as previous.
final class CardFingerprintKeyCheck: Sendable {
    /// The key given, if any.
    let given: CardFingerprintKey?
    /// Keys of earlier fingerprints, accepted in place of the recorded one (a rotation).
    let previous: [CardFingerprintKey]
    /// The key file to create (with the database's old key, or a new one) when no key was given.
    let file: String?
    /// Whether ``file`` is created with a new key when the database holds none (a tool that
    /// only migrates leaves that to the instances that serve).
    let makesNewKey: Bool
    /// The database as messages name it.
    let database: String
    private let settled = Mutex<CardFingerprintKey?>(nil)

    init(
        given: CardFingerprintKey?, previous: [CardFingerprintKey] = [], file: String? = nil,
        makesNewKey: Bool = true, database: String
    ) {
        self.given = given
        self.previous = previous
        self.file = file
        self.makesNewKey = makesNewKey
        self.database = database
    }

    /// The check `configuration` asks for on the database it names.
    convenience init(_ configuration: SandboxGatewayConfiguration, makesNewKey: Bool = true) {
        self.init(
            given: configuration.fingerprintKey, previous: configuration.previousFingerprintKeys,
            file: configuration.fingerprintKeyFile, makesNewKey: makesNewKey,
            database: configuration.databaseURL?.description ?? configuration.databasePath)
    }

    /// The key fingerprints are made with: set by ``resolve(_:)``; `nil` when none was given
    /// and none had to be (a tool that does not fingerprint cards).
    var key: CardFingerprintKey? { settled.withLock { $0 } }

    /// Before the migrations: settles the key against the one an older database holds.
    ///
    /// - Throws: ``GatewayStartupError`` when the database's old key is unreadable, differs
    ///   from the key given, or has nowhere to go; or when the key file cannot be made.
    func resolve(_ session: any SQLSession) throws {
        let key: CardFingerprintKey?
        switch try Self.keyInDatabase(session) {
        case .absent:
            if let given {
                key = given
            } else if let file, makesNewKey {
                key = try CardFingerprintKeyFile.create(path: file, key: .random()).key
            } else {
                key = nil
            }
        case .unusable(let found):
            throw GatewayStartupError.cardFingerprintSecretUnreadable(path: database, found: found)
        case .key(let stored):
            if let given {
                guard stored == given || previous.contains(stored) else {
                    throw GatewayStartupError.fingerprintKeyMismatch(
                        database: database, holding: stored.description, given: given.description)
                }
                key = given
            } else if let file {
                let kept = try CardFingerprintKeyFile.create(path: file, key: stored).key
                guard kept == stored else {
                    throw GatewayStartupError.fingerprintKeyMismatch(
                        database: database, holding: stored.description, given: "\(kept) (in \(file))")
                }
                key = stored
            } else {
                throw GatewayStartupError.fingerprintKeyRequired(database: database)
            }
        }
        settled.withLock { $0 = key }
    }

    /// After the migrations: records the key's id in a new database, or checks it against the
    /// recorded one, moving the record to the new key when the recorded one is given as previous.
    ///
    /// - Throws: ``GatewayStartupError/fingerprintKeyMismatch`` when the database's
    ///   fingerprints were made with another key.
    func record(in database: any GatewayDatabase) async throws {
        guard let key else { return }
        let previousIDs = previous.map(\.id)
        let recorded = try await database.write { db -> String? in
            try db.execute(
                sql:
                    "INSERT INTO payment_fingerprint_key (id, key_id) VALUES (1, ?) ON CONFLICT (id) DO NOTHING",
                arguments: [key.id])
            let recorded = try db.fetchValue(
                String.self, sql: "SELECT key_id FROM payment_fingerprint_key WHERE id = 1")
            if let recorded, recorded != key.id, previousIDs.contains(recorded) {
                try db.execute(
                    sql: "UPDATE payment_fingerprint_key SET key_id = ? WHERE id = 1", arguments: [key.id])
                return key.id
            }
            return recorded
        }
        guard recorded == key.id else {
            throw GatewayStartupError.fingerprintKeyMismatch(
                database: self.database, stored: "card-fingerprint key \(recorded ?? "(none)")",
                given: key.description)
        }
    }

    /// What an older database's `payment_secret` holds.
    enum StoredKey {
        /// No such table: a new database, or one migrated already.
        case absent
        /// The key.
        case key(CardFingerprintKey)
        /// A row that is not a key (missing, not bytes, too short), with what was found.
        case unusable(String)
    }

    /// The fewest bytes older versions accepted for the key they stored.
    static let minimumStoredBytes = 16

    /// Reads the key an older database keeps beside its fingerprints.
    static func keyInDatabase(_ session: any SQLSession) throws -> StoredKey {
        guard try session.tableExists("payment_secret") else { return .absent }
        let value = try session.fetchColumn(
            sql: "SELECT value FROM payment_secret WHERE name = 'card_fingerprint'", arguments: []
        ).first
        switch value?.storage {
        case .blob(let secret) where secret.count >= minimumStoredBytes:
            return .key(CardFingerprintKey(legacy: Array(secret)))
        case .blob(let secret):
            return .unusable("\(secret.count) bytes, at least \(minimumStoredBytes) needed")
        case nil:
            return .unusable("no secret is stored")
        case .null:
            return .unusable("the stored value is NULL")
        case .int64, .double:
            return .unusable("the stored value is a number")
        case .string:
            return .unusable("the stored value is text")
        }
    }
}
