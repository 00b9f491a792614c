import Foundation
import GRDB

extension CardFingerprinter {
    /// The fewest bytes a stored secret may have (``init(secret:)``'s own minimum).
    static let minimumSecretBytes = 16

    /// The fingerprinter keyed with the secret the ledger's first migration stored in
    /// `payment_secret`, so fingerprints match across restarts.
    ///
    /// - Throws: ``GatewayStartupError/cardFingerprintSecretUnreadable`` when the secret is
    ///   missing, not a blob or shorter than 16 bytes: a fresh one would silently change every
    ///   card's fingerprint, and with it the duplicate check and the spend limits.
    static func stored(in store: GatewayStore, path: String) async throws -> CardFingerprinter {
        let value = try await store.database.read { db in
            try db.fetchColumn(
                sql: "SELECT value FROM payment_secret WHERE name = 'card_fingerprint'", arguments: []
            ).first
        }
        let found: String
        switch value?.storage {
        case .blob(let secret) where secret.count >= minimumSecretBytes:
            return CardFingerprinter(secret: secret)
        case .blob(let secret):
            found = "\(secret.count) bytes, at least \(minimumSecretBytes) needed"
        case nil:
            found = "no secret is stored"
        case .null:
            found = "the stored value is NULL"
        case .int64, .double:
            found = "the stored value is a number"
        case .string:
            found = "the stored value is text"
        }
        throw GatewayStartupError.cardFingerprintSecretUnreadable(path: path, found: found)
    }
}
