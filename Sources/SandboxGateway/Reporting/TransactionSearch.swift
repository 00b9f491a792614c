import Foundation
import GRDB
import MPOSCore

/// A transaction search as the reporting route takes it: page, page size, order, a status
/// filter and one free-text field that matches a date, an amount without decimals, an id or
/// the cardholder's name.
public struct TransactionSearch: Sendable, Hashable {
    /// Which transactions the status filter keeps.
    public enum StatusFilter: String, Sendable, Hashable, CaseIterable {
        /// Approved and partially approved (including partly refunded).
        case approved
        /// Declined.
        case declined
        /// Reversed or voided.
        case reversed
        /// Refunded in full, and refund transactions.
        case refunded
        /// Everything.
        case all
    }

    /// The sort order.
    public enum Order: String, Sendable, Hashable, CaseIterable {
        /// Newest first (the default).
        case newest
        /// Oldest first.
        case oldest
        /// Largest amount first.
        case amountDescending = "amount_desc"
        /// Smallest amount first.
        case amountAscending = "amount_asc"
    }

    /// The largest page size.
    public static let maximumPageSize = 200

    /// The 1-based page.
    public var page: Int
    /// Results per page, 1 to 200.
    public var pageSize: Int
    /// The order.
    public var order: Order
    /// The status filter.
    public var status: StatusFilter
    /// The free text, trimmed; `nil` or empty matches everything.
    public var text: String?
    /// Kind, amount range and card last four (``TransactionFilters``); none by default.
    public var filters = TransactionFilters.none

    /// Validates and creates a search.
    /// - Throws: ``PaymentRuleViolation/Reason/invalidField`` for a page below 1 or a page size
    ///   outside 1...200, or an unknown order or status.
    public init(
        page: Int = 1, pageSize: Int = 20, order: String? = nil, status: String? = nil, text: String? = nil
    )
        throws(PaymentRuleViolation)
    {
        guard page >= 1 else { throw PaymentRuleViolation(.invalidField, "page must be 1 or more.") }
        guard (1...Self.maximumPageSize).contains(pageSize) else {
            throw PaymentRuleViolation(.invalidField, "pageSize must be 1 to \(Self.maximumPageSize).")
        }
        guard let order = Order(rawValue: order ?? Order.newest.rawValue) else {
            throw PaymentRuleViolation(
                .invalidField,
                "order must be one of \(Order.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        guard let status = StatusFilter(rawValue: (status ?? "all").lowercased()) else {
            throw PaymentRuleViolation(
                .invalidField,
                "status must be one of \(StatusFilter.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        self.page = page
        self.pageSize = pageSize
        self.order = order
        self.status = status
        let trimmed = text?.trimmingCharacters(in: .whitespaces)
        self.text = trimmed?.isEmpty == false ? String(trimmed!.prefix(100)) : nil
    }

    /// The SQL `WHERE` condition (without the keyword) over the `payment_transaction` table for
    /// `merchant`, and its arguments.
    public func condition(merchant: String) -> (sql: String, arguments: StatementArguments) {
        var clauses = ["merchant_id = ?"]
        var arguments: [any DatabaseValueConvertible] = [merchant]
        switch status {
        case .approved: clauses.append("status IN ('approved', 'partiallyApproved')")
        case .declined: clauses.append("status = 'declined'")
        case .reversed: clauses.append("status = 'reversed'")
        case .refunded: clauses.append("(status = 'refunded' OR kind = 'refund')")
        case .all: break
        }
        if let text {
            var alternatives = ["id = ?", "external_id = ?", "LOWER(cardholder_name) LIKE LOWER(?) ESCAPE '\\'"]
            arguments += [text, text, "%" + Self.escapeLike(text) + "%"]
            if let day = Self.utcDay(text) {
                // A range rather than `substr(created_at, …)`, so the time index can answer it.
                alternatives.append("(created_at >= ? AND created_at < ?)")
                arguments += [day.start, day.end]
            }
            if let whole = Int64(text), whole >= 0 {
                alternatives.append("amount_major = ?")
                arguments.append(whole)
            }
            clauses.append("(" + alternatives.joined(separator: " OR ") + ")")
        }
        for filter in filters.clauses() {
            clauses.append(filter.sql)
            arguments.append(filter.argument)
        }
        return (clauses.joined(separator: " AND "), StatementArguments(arguments))
    }

    /// The SQL `ORDER BY` clause (without the keyword).
    public var orderBy: String {
        switch order {
        case .newest: "created_at DESC, seq DESC"
        case .oldest: "created_at ASC, seq ASC"
        case .amountDescending: "amount_requested DESC, seq DESC"
        case .amountAscending: "amount_requested ASC, seq ASC"
        }
    }

    /// Rows to skip; a page too far to count in an `Int` skips every row rather than
    /// overflowing.
    public var offset: Int {
        let (rows, overflow) = (page - 1).multipliedReportingOverflow(by: pageSize)
        return overflow ? Int.max : rows
    }

    /// The UTC day `text` names as `yyyy-MM-dd`: its first instant and the next day's; `nil`
    /// when `text` is not such a date (or names no real day, like `2026-02-30`).
    static func utcDay(_ text: String) -> (start: Date, end: Date)? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes.enumerated().allSatisfy({
                $0.offset == 4 || $0.offset == 7 || (48...57).contains($0.element)
            }),
            let year = Int(text.prefix(4)), let month = Int(text.dropFirst(5).prefix(2)),
            let day = Int(text.suffix(2))
        else { return nil }
        return StatisticsPeriod.utcDay(year: year, month: month, day: day)
    }

    static func escapeLike(_ text: String) -> String {
        var out = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { out.append("\\") }
            out.append(character)
        }
        return out
    }
}
