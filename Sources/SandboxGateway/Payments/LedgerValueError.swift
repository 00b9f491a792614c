import GRDB

/// A ledger column holds a value the gateway never writes, such as a status no
/// ``MPOSCore/FinancialStatus`` has: reading the row throws this rather than guess.
public struct LedgerValueError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The column, such as `status`.
    public let column: String
    /// What the column holds, as text (at most 64 characters of it).
    public let value: String

    /// `payment_transaction.status holds "…", which is not a known status.`
    public var description: String {
        "payment_transaction.\(column) holds \"\(value)\", which is not a known \(column)."
    }

    /// The text of `column` in `row`, made a value by `make`.
    ///
    /// - Throws: ``LedgerValueError`` when the column is not text or `make` returns nil.
    static func decode<Value>(_ row: Row, _ column: String, _ make: (String) -> Value?) throws -> Value {
        let stored: DatabaseValue = row[column]
        let text = String.fromDatabaseValue(stored)
        if let text, let value = make(text) { return value }
        throw LedgerValueError(column: column, value: String((text ?? stored.description).prefix(64)))
    }
}
