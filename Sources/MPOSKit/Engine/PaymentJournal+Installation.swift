import Foundation
import GRDB
import MPOSCore

/// The installation's own id, created once with the journal and kept in it: the Terminal API's
/// POIID unless the app sets one, the same whichever reader is connected, or none.
extension PaymentJournal {
    static let installationTable = "installation"

    /// Creates the table and this installation's id (`MPOSKit-` and 12 hex digits).
    static func createInstallationTable(_ db: Database) throws {
        try db.create(table: installationTable) { t in
            t.primaryKey("id", .integer).check { $0 == 1 }
            t.column("installationID", .text).notNull()
        }
        let random = UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12)
        try db.execute(
            sql: "INSERT INTO \(installationTable) (id, installationID) VALUES (1, ?)",
            arguments: ["MPOSKit-" + random.uppercased()])
    }

    /// This installation's id.
    ///
    /// - Throws: ``MPOSError/journalFailed`` when the journal cannot be read.
    func installationID() throws(MPOSError) -> String {
        do {
            let id = try queue.read { db in
                try String.fetchOne(db, sql: "SELECT installationID FROM \(Self.installationTable) WHERE id = 1")
            }
            guard let id else { throw MPOSError.journalFailed.withMessage("The journal holds no installation id.") }
            return id
        } catch let error as MPOSError {
            throw error
        } catch {
            throw MPOSError.journalFailed.withMessage("The installation id could not be read: \(error).")
        }
    }
}
