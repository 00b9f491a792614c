import Foundation
import GRDB
import MPOSCore

extension LedgerTransaction {
    /// Each stored column with this row's value, by name: what inserts and updates write.
    /// The enums go in as their raw values and the currency as its alpha code, as older rows
    /// hold them; dates as GRDB's own date text, made without a `DateFormatter`
    /// (``SQLiteTimestamp``). ``init(row:)`` reads the same names back.
    var storedColumns: [(name: String, value: (any DatabaseValueConvertible)?)] {
        [
            ("seq", seq), ("id", id), ("merchant_id", merchantId), ("kind", kind.rawValue),
            ("status", status.rawValue), ("original_id", originalId), ("amount_requested", amountRequested),
            ("amount_approved", amountApproved), ("amount_captured", amountCaptured),
            ("amount_refunded", amountRefunded), ("amount_tip", amountTip), ("amount_major", amountMajor),
            ("currency", currency.code), ("response_code", responseCode), ("auth_code", authCode),
            ("acquirer_message", acquirerMessage), ("batch_id", batchId),
            ("card_fingerprint", cardFingerprint),
            ("masked_pan", maskedPan), ("brand", brand), ("expiry", expiry),
            ("cardholder_name", cardholderName),
            ("entry_mode", entryMode), ("cvm", cvm), ("aid", aid), ("application_label", applicationLabel),
            ("tvr", tvr), ("tsi", tsi), ("issuer_authentication_data", issuerAuthenticationData),
            ("customer_reference", customerReference), ("external_id", externalId),
            ("descriptor", descriptor),
            ("capture_mode", captureMode), ("allow_partial", allowPartial),
            ("created_at", SQLiteTimestamp.string(from: createdAt)),
            ("updated_at", SQLiteTimestamp.string(from: updatedAt)),
            ("idempotency_key", idempotencyKey),
        ]
    }

    /// Reads a row by column name.
    ///
    /// - Throws: ``LedgerValueError`` when the kind, status or currency is not one the gateway
    ///   writes (a hand edit, a newer gateway's value): the row is refused, never guessed at.
    public init(row: Row) throws {
        seq = try row.decode(forColumn: "seq")
        id = try row.decode(forColumn: "id")
        merchantId = try row.decode(forColumn: "merchant_id")
        kind = try LedgerValueError.decode(row, "kind") { TransactionKind(rawValue: $0) }
        status = try LedgerValueError.decode(row, "status") { FinancialStatus(rawValue: $0) }
        originalId = try row.decode(forColumn: "original_id")
        amountRequested = try row.decode(forColumn: "amount_requested")
        amountApproved = try row.decode(forColumn: "amount_approved")
        amountCaptured = try row.decode(forColumn: "amount_captured")
        amountRefunded = try row.decode(forColumn: "amount_refunded")
        amountTip = try row.decode(forColumn: "amount_tip")
        amountMajor = try row.decode(forColumn: "amount_major")
        currency = try LedgerValueError.decode(row, "currency") { Currency(code: $0) }
        responseCode = try row.decode(forColumn: "response_code")
        authCode = try row.decode(forColumn: "auth_code")
        acquirerMessage = try row.decode(forColumn: "acquirer_message")
        batchId = try row.decode(forColumn: "batch_id")
        cardFingerprint = try row.decode(forColumn: "card_fingerprint")
        maskedPan = try row.decode(forColumn: "masked_pan")
        brand = try row.decode(forColumn: "brand")
        expiry = try row.decode(forColumn: "expiry")
        cardholderName = try row.decode(forColumn: "cardholder_name")
        entryMode = try row.decode(forColumn: "entry_mode")
        cvm = try row.decode(forColumn: "cvm")
        aid = try row.decode(forColumn: "aid")
        applicationLabel = try row.decode(forColumn: "application_label")
        tvr = try row.decode(forColumn: "tvr")
        tsi = try row.decode(forColumn: "tsi")
        issuerAuthenticationData = try row.decode(forColumn: "issuer_authentication_data")
        customerReference = try row.decode(forColumn: "customer_reference")
        externalId = try row.decode(forColumn: "external_id")
        descriptor = try row.decode(forColumn: "descriptor")
        captureMode = try row.decode(forColumn: "capture_mode")
        allowPartial = try row.decode(forColumn: "allow_partial")
        createdAt = try row.decode(forColumn: "created_at")
        updatedAt = try row.decode(forColumn: "updated_at")
        idempotencyKey = try row.decode(forColumn: "idempotency_key")
    }

    /// The columns written on insert and update, without `Encodable`'s snake_case key
    /// conversion per column per row.
    public func encode(to container: inout PersistenceContainer) throws {
        for column in storedColumns { container[column.name] = column.value }
    }

    /// The insert of every stored column but ``seq`` (the database numbers the row), named as
    /// ``storedColumns`` names them, returning the number given.
    private static let insertSQL: String = {
        let blank = LedgerTransaction(
            id: "", merchantId: "", kind: .sale, status: .pending, amount: 0, currency: .eur,
            now: Date(timeIntervalSince1970: 0))
        let names = blank.storedColumns.dropFirst().map(\.name)
        return "INSERT INTO payment_transaction (\(names.joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: names.count).joined(separator: ", ") + ") RETURNING seq"
    }()

    /// Inserts the row through one cached statement and sets ``seq``: every card
    /// authorization does so inside the serialized writer, where GRDB's generic insert cost
    /// several times the SQLite work (docs/performance.md).
    mutating func insertCached(_ db: any SQLSession) throws {
        seq = try db.fetchValue(
            Int64.self, sql: Self.insertSQL, arguments: StatementArguments(storedColumns.dropFirst().map(\.value)))
    }
}
