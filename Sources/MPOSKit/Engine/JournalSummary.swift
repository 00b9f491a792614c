import Foundation
import GRDB
import MPOSCore

/// What a journal file holds, read without changing it: whose it is and how much of it is
/// unfinished. For tools that list journals (`mpos journal list`) and that check a journal
/// belongs to a gateway before finishing its attempts there.
public struct JournalSummary: Sendable, Hashable {
    /// The journal file.
    public var path: String
    /// The gateway and merchant the journal is bound to; nil before its first login.
    public var owner: GatewayIdentity?
    /// Card payments and follow-ups whose outcome the journal does not know yet, or whose
    /// reversal is not confirmed: what a login at its gateway finishes.
    public var unfinishedAttempts: Int
    /// Networked-terminal (Terminal API) payments whose outcome the journal does not know.
    public var unfinishedNetworkedAttempts: Int
    /// When the journal last recorded an attempt; nil when it holds none.
    public var lastActivity: Date?

    /// Whether anything in the journal waits for its gateway.
    public var hasUnfinishedWork: Bool { unfinishedAttempts + unfinishedNetworkedAttempts > 0 }

    /// Reads the journal at `path` read-only: nothing in the file changes, and a journal
    /// written by an older version is read as it is.
    ///
    /// - Throws: ``MPOSError/journalFailed`` when there is no file at `path`, or it is not an
    ///   SQLite file, or another SQLite database than a journal.
    public static func read(path: String) throws(MPOSError) -> JournalSummary {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw MPOSError.journalFailed.withMessage("There is no payment journal at \(path).")
        }
        var configuration = Configuration()
        configuration.readonly = true
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }  // Read-only: closing it cannot lose a write.
            return try queue.read { db in
                let tables = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
                guard tables.contains(JournalEntry.databaseTableName) else {
                    throw MPOSError.journalFailed.withMessage("\(path) is not a payment journal (another SQLite database).")
                }
                var summary = JournalSummary(
                    path: path, owner: nil,
                    unfinishedAttempts: try Int.fetchOne(
                        db,
                        sql: "SELECT COUNT(*) FROM \(JournalEntry.databaseTableName) WHERE state != ?",
                        arguments: [JournalEntry.State.finished.rawValue]) ?? 0,
                    unfinishedNetworkedAttempts: 0, lastActivity: nil)
                if let seconds = try Double.fetchOne(
                    db, sql: "SELECT MAX(updatedAt) FROM \(JournalEntry.databaseTableName)")
                {
                    summary.lastActivity = Date(timeIntervalSince1970: seconds)
                }
                if tables.contains(NetworkedAttempt.tableName) {
                    summary.unfinishedNetworkedAttempts =
                        try Int.fetchOne(
                            db, sql: "SELECT COUNT(*) FROM \(NetworkedAttempt.tableName) WHERE state != ?",
                            arguments: [NetworkedAttempt.State.finished.rawValue]) ?? 0
                }
                if tables.contains(PaymentJournal.ownerTable) {
                    let columns = Set(try db.columns(in: PaymentJournal.ownerTable).map(\.name))
                    let instance = columns.contains("gatewayInstanceID") ? "gatewayInstanceID" : "NULL"
                    if let row = try Row.fetchOne(
                        db, sql: "SELECT gateway, merchantID, \(instance) AS instance FROM \(PaymentJournal.ownerTable)")
                    {
                        summary.owner = GatewayIdentity(
                            gatewayInstanceID: row["instance"], merchantID: row["merchantID"], gatewayURL: row["gateway"])
                    }
                }
                return summary
            }
        } catch let error as MPOSError {
            throw error
        } catch {
            throw MPOSError.journalFailed.withMessage(
                "\(path) is not a payment journal (\(PaymentJournal.describe(error))).")
        }
    }
}
