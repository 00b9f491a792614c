import Crypto
import EMV
import Foundation

/// Validates an uploaded inventory file: RFC 4180 CSV in UTF-8 with a header row, every row
/// with as many fields as the header, and a size limit. The gateway stores the bytes as
/// uploaded and hands them back on download; this only refuses what a reader could not parse.
public enum InventoryCSV {
    /// The largest file accepted.
    public static let maximumBytes = 2 * 1024 * 1024

    /// What an accepted file holds.
    public struct Summary: Sendable, Hashable {
        /// The header's column names.
        public var columns: [String]
        /// Data rows, the header not counted.
        public var rowCount: Int
    }

    /// SHA-256 of `bytes`, lower-case hex.
    public static func sha256Hex(_ bytes: [UInt8]) -> String {
        Hex.encode(Array(SHA256.hash(data: bytes))).lowercased()
    }

    /// Parses and checks `bytes`.
    /// - Throws: ``PaymentRuleViolation/Reason/invalidField`` naming the problem and its line.
    public static func validate(_ bytes: [UInt8]) throws(PaymentRuleViolation) -> Summary {
        guard !bytes.isEmpty else {
            throw PaymentRuleViolation(.invalidField, "The inventory file is empty.")
        }
        guard bytes.count <= maximumBytes else {
            throw PaymentRuleViolation(
                .invalidField, "The inventory file is larger than \(maximumBytes) bytes.")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw PaymentRuleViolation(.invalidField, "The inventory file is not UTF-8.")
        }
        let rows = try parse(text)
        guard let header = rows.first, header.contains(where: { !$0.isEmpty }) else {
            throw PaymentRuleViolation(.invalidField, "The inventory file has no header row.")
        }
        for (index, row) in rows.enumerated().dropFirst() where row.count != header.count {
            throw PaymentRuleViolation(
                .invalidField, "Line \(index + 1) has \(row.count) fields; the header has \(header.count).")
        }
        return Summary(columns: header, rowCount: rows.count - 1)
    }

    /// Splits CSV text into rows of fields; quoted fields may hold commas, quotes (doubled)
    /// and line breaks. A trailing line break does not make an empty row.
    static func parse(_ text: String) throws(PaymentRuleViolation) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var fieldStarted = false
        var iterator = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        var line = 1
        func next() -> Unicode.Scalar? {
            if let scalar = pending { pending = nil; return scalar }
            return iterator.next()
        }
        while let scalar = next() {
            if quoted {
                if scalar == "\"" {
                    let following = next()
                    if following == "\"" {
                        field.unicodeScalars.append("\"")
                    } else {
                        quoted = false; pending = following
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"":
                guard field.isEmpty else {
                    throw PaymentRuleViolation(
                        .invalidField, "Line \(line): a quote inside an unquoted field.")
                }
                quoted = true
                fieldStarted = true
            case ",":
                row.append(field); field = ""; fieldStarted = true
            case "\r":
                continue
            case "\n":
                row.append(field); rows.append(row); row = []; field = ""; fieldStarted = false
                line += 1
            default:
                field.unicodeScalars.append(scalar); fieldStarted = true
            }
        }
        guard !quoted else {
            throw PaymentRuleViolation(.invalidField, "Line \(line): a quoted field never ends.")
        }
        if fieldStarted || !row.isEmpty { row.append(field); rows.append(row) }
        return rows
    }
}
