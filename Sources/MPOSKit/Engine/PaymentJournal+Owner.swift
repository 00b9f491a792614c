import Foundation
import GRDB
import MPOSCore

/// The gateway and merchant a journal's attempts were made with. A journal holds one owner's
/// attempts only: looking them up, reversing or resuming them at another gateway (or as
/// another merchant) would ask about keys that gateway never saw, or act on another
/// merchant's money.
///
/// The gateway is its instance id, which it keeps across restarts, ports and proxies; its
/// URL is kept too (the last one it was reached at, for people and tools), and is what binds
/// only where a side knows no instance id (an older gateway, an older journal).
typealias JournalOwner = GatewayIdentity

extension GatewayIdentity {
    /// An owner as the journal stores it.
    init(gateway: String, merchantID: String, gatewayInstanceID: String? = nil) {
        self.init(gatewayInstanceID: gatewayInstanceID, merchantID: merchantID, gatewayURL: gateway)
    }
}

extension PaymentJournal {
    /// The one-row table naming the journal's owner.
    static let ownerTable = "owner"

    /// Adds the gateway's instance id to the owner table (migration v6): a journal bound
    /// before keeps its URL binding until a login at that URL reports the instance id.
    static func addOwnerInstanceColumn(_ db: Database) throws {
        try db.alter(table: ownerTable) { t in t.add(column: "gatewayInstanceID", .text) }
    }

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
    /// were kept) adopts it; one bound to the same owner (the same merchant at the same
    /// gateway instance) keeps its binding and notes the URL it was reached at now, and the
    /// instance id when it was bound by URL before instance ids were kept.
    ///
    /// - Throws: ``MPOSError/journalOwnedElsewhere`` when another gateway or merchant owns
    ///   the journal (nothing in it changes); ``MPOSError/journalFailed`` when it cannot be
    ///   read or written.
    func bind(to owner: JournalOwner) throws(MPOSError) {
        let stored: JournalOwner
        do {
            stored = try queue.write { db in
                if let existing = try Self.storedOwner(db) {
                    guard existing.admits(owner) else { return existing }
                    let updated = JournalOwner(
                        gateway: owner.gatewayURL, merchantID: existing.merchantID,
                        gatewayInstanceID: existing.gatewayInstanceID ?? owner.gatewayInstanceID)
                    if updated != existing {
                        try db.execute(
                            sql: "UPDATE \(Self.ownerTable) SET gateway = ?, gatewayInstanceID = ? WHERE id = 1",
                            arguments: [updated.gatewayURL, updated.gatewayInstanceID])
                    }
                    return updated
                }
                try db.execute(
                    sql: "INSERT INTO \(Self.ownerTable) (id, gateway, merchantID, gatewayInstanceID) VALUES (1, ?, ?, ?)",
                    arguments: [owner.gatewayURL, owner.merchantID, owner.gatewayInstanceID])
                return owner
            }
        } catch {
            throw MPOSError.journalFailed.withMessage("The payment journal could not be written: \(Self.describe(error)).")
        }
        guard stored.admits(owner) else {
            throw MPOSError.journalOwnedElsewhere.withMessage(
                "The payment journal \(path) belongs to \(stored.description), not \(owner.description); "
                    + "use another journal file for this gateway and merchant.")
        }
    }

    static func storedOwner(_ db: Database) throws -> JournalOwner? {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT gateway, merchantID, gatewayInstanceID FROM \(ownerTable) WHERE id = 1")
        else { return nil }
        return JournalOwner(
            gateway: row["gateway"], merchantID: row["merchantID"], gatewayInstanceID: row["gatewayInstanceID"])
    }
}

extension PaymentJournal {
    /// Empties the journal and forgets its owner, so that the next login may bind it to
    /// another merchant, when every attempt in it is finished; leaves it as it is otherwise.
    /// The check and the emptying are one transaction, so an attempt written meanwhile is
    /// never lost.
    ///
    /// - Returns: whether the journal was emptied.
    /// - Throws: ``MPOSError/journalFailed`` when it cannot be read or written.
    func releaseIfSettled() throws(MPOSError) -> Bool {
        do {
            return try queue.write { db in
                let open = try JournalEntry.filter(Column("state") != JournalEntry.State.finished.rawValue)
                    .fetchCount(db)
                guard open == 0 else { return false }
                try JournalEntry.deleteAll(db)
                try db.execute(sql: "DELETE FROM \(Self.ownerTable)")
                return true
            }
        } catch {
            throw MPOSError.journalFailed.withMessage(
                "The payment journal could not be written: \(Self.describe(error)).")
        }
    }
}
