import Foundation
import GRDB
import MPOSCore

/// One journaled attempt: enough to finish it after a crash, never card data beyond the
/// masked PAN (first 6 / last 4).
///
/// Its values are typed: a row whose key, identifiers, currency, state or outcome does not
/// parse is an error when read (``MalformedValue``), never replaced by a made-up value, so
/// that recovery asks the gateway about the attempt that was made and no other.
struct JournalEntry: Sendable, Hashable, FetchableRecord, PersistableRecord {
    /// Where an attempt stands.
    enum State: String, Sendable, Hashable, Codable, DatabaseValueConvertible {
        /// Written, and synced, when the attempt starts, before its gateway request can leave.
        /// The updates up to the outcome are not synced (see ``JournalEntry/mustBeDurable``),
        /// so after a crash an entry may still say `created` although its request reached the
        /// gateway: recovery asks the gateway about it as about `authorizing`.
        case created
        /// The gateway request may have left: its outcome is known only to the gateway.
        case authorizing
        /// The gateway approved; the card's final word is pending.
        case approved
        /// A reversal of the approved transaction is due.
        case reversing
        /// Nothing more to do.
        case finished
    }

    /// What was attempted: a card operation (the reader was involved) or a gateway-only
    /// follow-up or record. Stored as its raw value (`sale`, `refund`, `cashRefund`, …).
    enum Operation: Sendable, Hashable, CustomStringConvertible {
        case card(CardOperation)
        case followUp(FollowUpOperation)

        /// The stored text.
        var rawValue: String {
            switch self {
            case .card(let operation): operation.rawValue
            case .followUp(let operation): operation.rawValue
            }
        }

        /// The operation stored as `rawValue`, if it is one.
        init?(rawValue: String) {
            if let card = CardOperation(rawValue: rawValue) {
                self = .card(card)
            } else if let followUp = FollowUpOperation(rawValue: rawValue) {
                self = .followUp(followUp)
            } else {
                return nil
            }
        }

        /// Whether an approval of this operation that the card never completed must be reversed.
        var isCardOperation: Bool { if case .card = self { true } else { false } }

        var description: String { rawValue }
    }

    /// A stored value that does not parse as its type: the journal cannot be trusted to say
    /// what was attempted, so reading it fails instead of guessing.
    struct MalformedValue: Error, CustomStringConvertible {
        /// The column that holds it.
        let column: String

        var description: String { "the \(column) of an entry does not parse" }
    }

    static let databaseTableName = "attempt"

    /// The idempotency key of the gateway request; the primary key.
    var key: IdempotencyKey
    var operation: Operation
    /// The reader's transaction id (card operations only).
    var readerTransactionID: String?
    /// The transaction a follow-up (refund, void, capture, tip) acts on.
    var originalTransactionID: TransactionID?
    var amount: Int64?
    var currency: Currency?
    var state: State
    /// First 6 / last 4 at most.
    var maskedPAN: String?
    /// The gateway's transaction id once known.
    var gatewayTransactionID: TransactionID?
    /// How it ended, once finished.
    var outcome: PaymentStatus?
    var createdAt: Date
    var updatedAt: Date

    /// The table's columns, each with how its value is bound: the one list both the journal's
    /// insert statement and its arguments are built from, so that the two cannot disagree.
    /// Values are bound as GRDB binds them (a typed value's text), so rows are the same
    /// whichever wrote them; dates are stored as seconds since 1970 (see ``storedDate(_:)``).
    /// A stored property added to the entry must be added here too (a test checks).
    static let columns: [(name: String, value: @Sendable (JournalEntry) -> DatabaseValue)] = [
        ("key", { $0.key.rawValue.databaseValue }),
        ("operation", { $0.operation.rawValue.databaseValue }),
        ("readerTransactionID", { $0.readerTransactionID.databaseValue }),
        ("originalTransactionID", { $0.originalTransactionID?.rawValue.databaseValue ?? .null }),
        ("amount", { $0.amount.databaseValue }),
        ("currency", { $0.currency?.code.databaseValue ?? .null }),
        ("state", { $0.state.rawValue.databaseValue }),
        ("maskedPAN", { $0.maskedPAN.databaseValue }),
        ("gatewayTransactionID", { $0.gatewayTransactionID?.rawValue.databaseValue ?? .null }),
        ("outcome", { $0.outcome?.rawValue.databaseValue ?? .null }),
        ("createdAt", { storedDate($0.createdAt).databaseValue }),
        ("updatedAt", { storedDate($0.updatedAt).databaseValue }),
    ]

    /// How a date is stored: seconds since 1970, which GRDB reads back as a `Date` like the
    /// text it writes by default. Binding a `Date` as text goes through a `DateFormatter` (ICU),
    /// twice per journal write, several writes per payment; a number costs nothing to make.
    /// Journals written before store text, which migration `v2-dates-as-seconds` converts.
    static func storedDate(_ date: Date) -> Double { date.timeIntervalSince1970 }

    /// Inserts an entry, or replaces every column but the key of the entry with its key: what
    /// GRDB's generic `save` does, as one statement SQLite prepares once per connection.
    static let upsertSQL = upsertSQL(table: databaseTableName, columns: columns.map(\.name))

    /// The statement that inserts a row of `table`, or replaces every column but the first
    /// (the key) of the row with its key.
    static func upsertSQL(table: String, columns: [String]) -> String {
        let names = columns.map { "\"\($0)\"" }
        let updates = names.dropFirst().map { "\($0) = excluded.\($0)" }
        return "INSERT INTO \"\(table)\" (\(names.joined(separator: ", "))) "
            + "VALUES (\(Array(repeating: "?", count: names.count).joined(separator: ", "))) "
            + "ON CONFLICT(\(names[0])) DO UPDATE SET \(updates.joined(separator: ", "))"
    }

    /// The arguments of ``upsertSQL`` for this entry, in the order of ``columns``.
    var upsertArguments: StatementArguments {
        StatementArguments(Self.columns.map { $0.value(self) as (any DatabaseValueConvertible)? })
    }

    /// The idempotency key of the reversal of this attempt: derived, so a retry after a
    /// restart reuses it.
    var reversalKey: IdempotencyKey { IdempotencyKey(rawValue: String((key.rawValue + "-rev").prefix(64)))! }

    /// Whether this write must reach the disk (an fsync) before the operation goes on: the
    /// attempt's first record, which recovery needs before any gateway request may leave, and
    /// every record of an outcome, which must outlive a crash once the app is told. The
    /// states in between only save recovery a lookup: SQLite orders them in its log, and the
    /// next synced write makes them durable too.
    var mustBeDurable: Bool { state == .created || outcome != nil || state == .finished }
}

/// Reading and writing rows: typed values parsed from the text the journal stores.
extension JournalEntry {
    /// Reads a row as the journal (or an earlier version of it) wrote it.
    ///
    /// - Throws: ``MalformedValue`` for a value that does not parse as its type.
    init(row: Row) throws {
        key = try Self.parse(row, "key", IdempotencyKey.init(rawValue:))
        operation = try Self.parse(row, "operation", Operation.init(rawValue:))
        readerTransactionID = try row.decode(String?.self, forColumn: "readerTransactionID")
        originalTransactionID = try Self.parseIfPresent(row, "originalTransactionID", TransactionID.init(rawValue:))
        amount = try row.decode(Int64?.self, forColumn: "amount")
        currency = try Self.parseIfPresent(row, "currency") { Currency(code: $0) }
        state = try Self.parse(row, "state", State.init(rawValue:))
        maskedPAN = try row.decode(String?.self, forColumn: "maskedPAN")
        gatewayTransactionID = try Self.parseIfPresent(row, "gatewayTransactionID", TransactionID.init(rawValue:))
        outcome = try Self.parseIfPresent(row, "outcome", PaymentStatus.init(rawValue:))
        createdAt = try row.decode(Date.self, forColumn: "createdAt")
        updatedAt = try row.decode(Date.self, forColumn: "updatedAt")
    }

    /// Writes the entry through GRDB's own conversions (`insert`, `save`): the reference the
    /// journal's own statement is checked against.
    func encode(to container: inout PersistenceContainer) {
        container["key"] = key.rawValue
        container["operation"] = operation.rawValue
        container["readerTransactionID"] = readerTransactionID
        container["originalTransactionID"] = originalTransactionID?.rawValue
        container["amount"] = amount
        container["currency"] = currency?.code
        container["state"] = state
        container["maskedPAN"] = maskedPAN
        container["gatewayTransactionID"] = gatewayTransactionID?.rawValue
        container["outcome"] = outcome?.rawValue
        container["createdAt"] = Self.storedDate(createdAt)
        container["updatedAt"] = Self.storedDate(updatedAt)
    }

    static func parse<Value>(_ row: Row, _ column: String, _ make: (String) -> Value?) throws -> Value {
        guard let value = try parseIfPresent(row, column, make) else { throw MalformedValue(column: column) }
        return value
    }

    /// The column's value parsed; nil when it is NULL.
    static func parseIfPresent<Value>(_ row: Row, _ column: String, _ make: (String) -> Value?) throws -> Value? {
        guard let text = try row.decode(String?.self, forColumn: column) else { return nil }
        guard let value = make(text) else { throw MalformedValue(column: column) }
        return value
    }
}

/// A gateway-only operation the journal records: a follow-up of an earlier transaction, or
/// a cash record. The raw value is what the journal stores.
enum FollowUpOperation: String, Sendable, Hashable, CaseIterable {
    case refund
    case void
    case capture
    case tipAdjustment
    case cash
    case cashRefund
}
