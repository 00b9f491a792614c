import Foundation
import GRDB
import NIOCore
import PostgresNIO

/// Converts between GRDB's values (what the seam's statements take and its rows give) and
/// PostgreSQL's wire values.
enum PostgresValues {
    /// The positional values of `arguments`.
    ///
    /// GRDB keeps them internal; they are read by reflection, and a GRDB whose layout changed
    /// fails here with a typed error (the round-trip tests catch it) rather than binding wrong.
    ///
    /// - Throws: ``PostgresEngineError`` for named arguments (the seam is positional only).
    static func values(of arguments: StatementArguments) throws -> [DatabaseValue] {
        if arguments.isEmpty { return [] }
        var positional: [DatabaseValue]?
        var named: [String: DatabaseValue] = [:]
        for child in Mirror(reflecting: arguments).children {
            if child.label == "values" { positional = child.value as? [DatabaseValue] }
            if child.label == "namedValues", let values = child.value as? [String: DatabaseValue] { named = values }
        }
        guard named.isEmpty else { throw PostgresEngineError.client("Named statement arguments are not supported.") }
        guard let positional else { throw PostgresEngineError.client("The statement arguments could not be read.") }
        return positional
    }

    /// Binds `values` in order: integers as int8, reals as float8, text as text, blobs as
    /// bytea, NULL untyped (the server infers its type).
    static func bindings(_ values: [DatabaseValue]) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            switch value.storage {
            case .null: bindings.appendNull()
            case .int64(let number): bindings.append(number)
            case .double(let number): bindings.append(number)
            case .string(let text): bindings.append(text)
            case .blob(let data): bindings.append(ByteBuffer(bytes: data))
            }
        }
        return bindings
    }

    /// A letter for the wire type `value` binds as (NULL leaves the type to the server), so
    /// that statements prepared with different parameter types are told apart.
    static func kind(of value: DatabaseValue) -> Character {
        switch value.storage {
        case .null: "n"
        case .int64: "i"
        case .double: "d"
        case .string: "s"
        case .blob: "b"
        }
    }

    /// The GRDB value of `cell`: integers and booleans (0/1) as integers, reals as reals,
    /// numerics as integers when whole (as SQLite's sums are) and reals otherwise, bytea as
    /// bytes, dates and timestamps as GRDB's text, anything else as its text.
    static func databaseValue(_ cell: PostgresCell) throws -> DatabaseValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int2, .int4, .int8, .oid:
            return try cell.decode(Int64.self).databaseValue
        case .float4, .float8:
            return try cell.decode(Double.self).databaseValue
        case .numeric:
            let text = try cell.decode(Decimal.self).description
            if let whole = Int64(text) { return whole.databaseValue }
            return (Double(text) ?? .nan).databaseValue
        case .bool:
            return Int64(try cell.decode(Bool.self) ? 1 : 0).databaseValue
        case .bytea:
            return Data(try cell.decode(ByteBuffer.self).readableBytesView).databaseValue
        case .timestamp, .timestamptz:
            return timestampFormat.string(from: try cell.decode(Date.self)).databaseValue
        case .date:
            return dateFormat.string(from: try cell.decode(Date.self)).databaseValue
        default:
            return try cell.decode(String.self).databaseValue
        }
    }

    /// The GRDB row of `row`, by column name.
    static func row(_ row: PostgresRow) throws -> Row {
        var values: [String: DatabaseValue] = [:]
        for cell in row {
            values[cell.columnName] = try databaseValue(cell)
        }
        return Row(values)
    }

    /// GRDB's storage format for dates, in UTC.
    private static let timestampFormat = utcFormatter("yyyy-MM-dd HH:mm:ss.SSS")
    private static let dateFormat = utcFormatter("yyyy-MM-dd")

    private static func utcFormatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = format
        return formatter
    }
}
