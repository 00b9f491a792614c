import Foundation
import GRDB
import MPOSCore

/// Statistics from figures SQL has already added up per UTC day and status: every period
/// (day, ISO week, month, quarter, year) is a union of whole UTC days, so folding the days'
/// figures gives exactly what adding each transaction would, with the database doing the
/// per-row work and Swift a few hundred calendar look-ups.
extension StatisticsPeriod {
    /// The UTC day `year`-`month`-`day`: its first instant and the next day's; `nil` when no
    /// such day exists (`2026-02-30`).
    static func utcDay(year: Int, month: Int, day: Int) -> (start: Date, end: Date)? {
        let calendar = utc
        guard let start = calendar.date(from: DateComponents(year: year, month: month, day: day)),
            calendar.dateComponents([.year, .month, .day], from: start)
                == DateComponents(year: year, month: month, day: day),
            let end = calendar.date(byAdding: .day, value: 1, to: start)
        else { return nil }
        return (start, end)
    }
}

extension StatisticsFigures {
    /// Adds another set's figures to these, as if each of its amounts had been added.
    public mutating func merge(_ other: StatisticsFigures) {
        guard other.count > 0 else { return }
        count += other.count
        turnover &+= other.turnover
        minimum = Swift.min(minimum ?? other.minimum!, other.minimum!)
        maximum = Swift.max(maximum ?? other.maximum!, other.maximum!)
    }
}

extension StatisticsAggregator {
    /// Adds the figures of transactions with one `status` made within one period, such as
    /// one UTC day's (`date` is any instant of it); `counts` says whether they belong to turnover.
    public mutating func add(
        _ figures: StatisticsFigures, currency: String, status: FinancialStatus, at date: Date, counts: Bool
    ) {
        let label = period.bucket(for: date)
        let key = label + "|" + currency
        var group =
            groups[key]
            ?? StatisticsGroup(
                periodStart: period.start(of: date), period: label, currency: currency,
                figures: StatisticsFigures(), byStatus: nestByStatus ? [:] : nil)
        if counts { group.figures.merge(figures) }
        if nestByStatus { group.byStatus![status.rawValue, default: StatisticsFigures()].merge(figures) }
        groups[key] = group
    }
}

/// The statistics query: a merchant's transactions of one currency in `[from, to)`, added up
/// per UTC day and status in SQL, through the covering time index.
enum StatisticsByDayQuery {
    /// The transaction kinds statistics cover.
    static let kinds = "'sale', 'capture', 'cash', 'sepa', 'refund'"
    /// The statuses whose transactions count towards turnover.
    static let countingStatuses: Set<FinancialStatus> = [.approved, .partiallyApproved, .refunded]

    /// The SQL; arguments are merchant, currency, from, to. A transaction's amount is its
    /// captured amount and tip once money moved (or was given back, reversed), the requested
    /// amount otherwise; refunds are negative. Without nesting by status, only the statuses
    /// that count towards turnover are read.
    static func sql(nestByStatus: Bool) -> String {
        let statuses = nestByStatus ? "" : "AND status IN ('approved', 'partiallyApproved', 'refunded')"
        return """
            SELECT substr(created_at, 1, 10) AS day, status, COUNT(*) AS n, SUM(amount) AS total,
              MIN(amount) AS low, MAX(amount) AS high
            FROM (
              SELECT created_at, status,
                (CASE WHEN kind = 'refund' THEN -1 ELSE 1 END)
                  * (CASE WHEN status IN ('approved', 'partiallyApproved', 'refunded', 'reversed')
                       THEN amount_captured + amount_tip ELSE amount_requested END) AS amount
              FROM payment_transaction
              WHERE merchant_id = ? AND currency = ? AND created_at >= ? AND created_at < ?
                AND kind IN (\(kinds)) \(statuses)
            ) AS ledger
            GROUP BY day, status
            """
    }

    /// Folds the figures of `[from, to)` into `aggregator`: the whole UTC days inside it from
    /// ``DailyTotals`` (a few rows per day), the part-days at either end from the ledger's rows.
    /// - Throws: ``LedgerValueError`` for a status the gateway does not write; GRDB's errors.
    static func fold(
        _ db: any SQLSession, into aggregator: inout StatisticsAggregator, merchant: String, currency: String,
        from: Date, to: Date
    ) throws {
        guard let whole = wholeDays(from: from, to: to) else {
            return try foldRows(db, into: &aggregator, merchant: merchant, currency: currency, from: from, to: to)
        }
        if from < whole.start {
            try foldRows(db, into: &aggregator, merchant: merchant, currency: currency, from: from, to: whole.start)
        }
        let statuses = aggregator.nestByStatus ? "" : "AND status IN ('approved', 'partiallyApproved', 'refunded')"
        let start = firstDay(of: aggregator.period, dialect: db.dialect)
        let totals = try db.fetchAll(
            sql: """
                SELECT \(start) AS day, status, SUM(n) AS n, SUM(total) AS total, MIN(low) AS low, MAX(high) AS high
                FROM payment_daily_total
                WHERE merchant_id = ? AND currency = ? AND day >= ? AND day < ? \(statuses)
                GROUP BY 1, status
                """,
            arguments: [merchant, currency, dayLabel(whole.start), dayLabel(whole.end)])
        try fold(totals, into: &aggregator, currency: currency)
        if whole.end < to {
            try foldRows(db, into: &aggregator, merchant: merchant, currency: currency, from: whole.end, to: to)
        }
    }

    /// The SQL for the first day of the period a `day` (`yyyy-MM-dd`) falls in: SQLite adds the
    /// kept days up into months, quarters and years, so Swift folds a row per period and status
    /// rather than per day. ISO weeks cross months and years, so a week's days come one by one.
    static func firstDay(of period: StatisticsPeriod, dialect: SQLDialect) -> String {
        switch period {
        case .day, .week: "day"
        case .month: "substr(day, 1, 7) || '-01'"
        case .quarter:
            dialect.quarterStart("day")
        case .year: "substr(day, 1, 4) || '-01-01'"
        }
    }

    /// Runs the query over the ledger's rows and folds its days into `aggregator`.
    static func foldRows(
        _ db: any SQLSession, into aggregator: inout StatisticsAggregator, merchant: String, currency: String,
        from: Date, to: Date
    ) throws {
        let rows = try db.fetchAll(
            sql: sql(nestByStatus: aggregator.nestByStatus), arguments: [merchant, currency, from, to])
        try fold(rows, into: &aggregator, currency: currency)
    }

    /// Folds rows of `day`, `status`, `n`, `total`, `low` and `high` into `aggregator`.
    static func fold(_ rows: [Row], into aggregator: inout StatisticsAggregator, currency: String) throws {
        var days: [String: Date] = [:]
        for row in rows {
            let status = try LedgerValueError.decode(row, "status") { FinancialStatus(rawValue: $0) }
            let label: String = row["day"]
            guard let day = days[label] ?? dayStart(label) else {
                throw LedgerValueError(column: "created_at", value: label)
            }
            days[label] = day
            var figures = StatisticsFigures()
            figures.count = row["n"]
            figures.turnover = row["total"]
            figures.minimum = row["low"]
            figures.maximum = row["high"]
            aggregator.add(
                figures, currency: currency, status: status, at: day,
                counts: countingStatuses.contains(status))
        }
    }

    /// The whole UTC days inside `[from, to)`: from the first midnight at or after `from` to
    /// the last at or before `to`; nil when there is no whole day.
    static func wholeDays(from: Date, to: Date) -> (start: Date, end: Date)? {
        let calendar = StatisticsPeriod.utc
        let first = calendar.startOfDay(for: from)
        let start = first == from ? first : calendar.date(byAdding: .day, value: 1, to: first)!
        let end = calendar.startOfDay(for: to)
        return start < end ? (start, end) : nil
    }

    /// `yyyy-MM-dd` of a UTC midnight.
    static func dayLabel(_ date: Date) -> String {
        let parts = StatisticsPeriod.utc.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    /// The first instant of the UTC day a stored `yyyy-MM-dd` names.
    static func dayStart(_ label: String) -> Date? {
        let parts = label.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        return StatisticsPeriod.utcDay(year: parts[0], month: parts[1], day: parts[2])?.start
    }
}
