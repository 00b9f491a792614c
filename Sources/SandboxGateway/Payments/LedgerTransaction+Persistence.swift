import Foundation
import GRDB
import MPOSCore

extension LedgerTransaction {
    /// The stored columns, in the order of ``storedValues``. The names are those
    /// ``databaseColumnDecodingStrategy`` reads back; a test round-trips every field.
    static let storedColumns = [
        "seq", "id", "merchant_id", "kind", "status", "original_id", "amount_requested", "amount_approved",
        "amount_captured", "amount_refunded", "amount_tip", "amount_major", "currency", "response_code",
        "auth_code", "acquirer_message", "batch_id", "card_fingerprint", "masked_pan", "brand", "expiry",
        "cardholder_name", "entry_mode", "cvm", "aid", "application_label", "tvr", "tsi",
        "issuer_authentication_data", "customer_reference", "external_id", "descriptor", "capture_mode",
        "allow_partial", "created_at", "updated_at",
    ]

    /// The row's values for ``storedColumns``. Dates go in as GRDB's own date text, made
    /// without a `DateFormatter` (``SQLiteTimestamp``).
    var storedValues: [(any DatabaseValueConvertible)?] {
        [
            seq, id, merchantId, kind, status, originalId, amountRequested, amountApproved, amountCaptured,
            amountRefunded, amountTip, amountMajor, currency, responseCode, authCode, acquirerMessage, batchId,
            cardFingerprint, maskedPan, brand, expiry, cardholderName, entryMode, cvm, aid, applicationLabel, tvr,
            tsi, issuerAuthenticationData, customerReference, externalId, descriptor, captureMode, allowPartial,
            SQLiteTimestamp.string(from: createdAt), SQLiteTimestamp.string(from: updatedAt),
        ]
    }

    /// The columns written on insert and update, by hand rather than through `Encodable` with
    /// snake_case conversion (a key conversion per column per row).
    public func encode(to container: inout PersistenceContainer) throws {
        for (column, value) in zip(Self.storedColumns, storedValues) { container[column] = value }
    }

    private static let insertSQL =
        "INSERT INTO payment_transaction (\(storedColumns.joined(separator: ", "))) VALUES ("
        + Array(repeating: "?", count: storedColumns.count).joined(separator: ", ") + ")"

    /// Inserts the row through one cached statement and sets ``seq``: what every card
    /// authorization does inside the serialized writer, where GRDB's generic insert (a
    /// persistence container and a statement lookup by its SQL text per row) cost several
    /// times the SQLite work.
    mutating func insertCached(_ db: Database) throws {
        try db.cachedStatement(sql: Self.insertSQL).execute(arguments: StatementArguments(storedValues))
        seq = db.lastInsertedRowID
    }
}
