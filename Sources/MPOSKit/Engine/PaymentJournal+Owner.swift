import Foundation
import GRDB
import MPOSCore

/// The gateway and merchant a journal's attempts were made with. A journal holds one owner's
/// attempts only: looking them up, reversing or resuming them at another gateway (or as
/// another merchant) would ask about keys that gateway never saw, or act on another
/// merchant's money.
struct JournalOwner: Sendable, Hashable {
    /// The gateway's base URL, without a trailing slash.
    var gateway: String
    /// The merchant's identifier at that gateway.
    var merchantID: String
}

extension PaymentJournal {
    /// The one-row table naming the journal's owner.
    static let ownerTable = "owner"

    /// Creates the owner table: empty until the first login binds the journal.
    static func createOwnerTable(_ db: Database) throws {
        try db.create(table: ownerTable) { t in
            t.primaryKey("id", .integer).check { $0 == 1 }
            t.column("gateway", .text).notNull()
            t.column("merchantID", .text).notNull()
        }
    }

    /// The owner the journal is bound to, nil before its first login.
    func owner() throws(MPOSError) -> JournalOwner? {
        do {
            return try queue.read { db in try Self.storedOwner(db) }
        } catch {
            throw MPOSError.journalFailed.withMessage("The payment journal could not be read: \(Self.describe(error)).")
        }
    }

    /// Binds the journal to `owner`: a journal without one (new, or written before owners
    /// were kept) adopts it; one bound to the same owner is left as it is.
    ///
    /// - Throws: ``MPOSError/journalOwnedElsewhere`` when another gateway or merchant owns
    ///   the journal (nothing in it changes); ``MPOSError/journalFailed`` when it cannot be
    ///   read or written.
    func bind(to owner: JournalOwner) throws(MPOSError) {
        let stored: JournalOwner
        do {
            stored = try queue.write { db in
                if let existing = try Self.storedOwner(db) { return existing }
                try db.execute(
                    sql: "INSERT INTO \(Self.ownerTable) (id, gateway, merchantID) VALUES (1, ?, ?)",
                    arguments: [owner.gateway, owner.merchantID])
                return owner
            }
        } catch {
            throw MPOSError.journalFailed.withMessage("The payment journal could not be written: \(Self.describe(error)).")
        }
        guard stored == owner else {
            throw MPOSError.journalOwnedElsewhere.withMessage(
                "The payment journal \(path) belongs to merchant \(stored.merchantID) at \(stored.gateway), "
                    + "not merchant \(owner.merchantID) at \(owner.gateway); use another journal file for this "
                    + "gateway and merchant.")
        }
    }

    private static func storedOwner(_ db: Database) throws -> JournalOwner? {
        guard let row = try Row.fetchOne(db, sql: "SELECT gateway, merchantID FROM \(ownerTable) WHERE id = 1")
        else { return nil }
        return JournalOwner(gateway: row["gateway"], merchantID: row["merchantID"])
    }
}
