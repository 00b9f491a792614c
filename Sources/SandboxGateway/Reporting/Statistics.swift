import Foundation
import MPOSCore

/// The period statistics are grouped by.
public enum StatisticsPeriod: String, Sendable, Hashable, CaseIterable, Codable {
    /// One bucket per UTC calendar day, labelled `2026-11-23`.
    case day
    /// One bucket per ISO 8601 week, labelled `2026-W48`.
    case week
    /// One bucket per month, labelled `2026-11`.
    case month
    /// One bucket per quarter, labelled `2026-Q4`.
    case quarter
    /// One bucket per year, labelled `2026`.
    case year

    static let utc: Calendar = {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// The first instant of the period `date` falls in, in UTC.
    public func start(of date: Date) -> Date {
        let calendar = Self.utc
        switch self {
        case .day: return calendar.startOfDay(for: date)
        case .week: return calendar.dateInterval(of: .weekOfYear, for: date)!.start
        case .month: return calendar.dateInterval(of: .month, for: date)!.start
        case .quarter:
            let c = calendar.dateComponents([.year, .month], from: date)
            return calendar.date(
                from: DateComponents(year: c.year, month: (c.month! - 1) / 3 * 3 + 1, day: 1))!
        case .year: return calendar.dateInterval(of: .year, for: date)!.start
        }
    }

    /// The label of the bucket `date` falls in, in UTC. Labels sort chronologically.
    public func bucket(for date: Date) -> String {
        let calendar = Self.utc
        switch self {
        case .day:
            let c = calendar.dateComponents([.year, .month, .day], from: date)
            return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
        case .week:
            let c = calendar.dateComponents([.yearForWeekOfYear, .weekOfYear], from: date)
            return String(format: "%04d-W%02d", c.yearForWeekOfYear!, c.weekOfYear!)
        case .month:
            let c = calendar.dateComponents([.year, .month], from: date)
            return String(format: "%04d-%02d", c.year!, c.month!)
        case .quarter:
            let c = calendar.dateComponents([.year, .month], from: date)
            return String(format: "%04d-Q%d", c.year!, (c.month! - 1) / 3 + 1)
        case .year:
            return String(format: "%04d", calendar.component(.year, from: date))
        }
    }
}

/// Count, turnover, smallest, largest and average amount of a set of transactions.
public struct StatisticsFigures: Sendable, Hashable, Codable {
    /// How many transactions.
    public var count: Int = 0
    /// The sum of their amounts in minor units.
    public var turnover: Int64 = 0
    /// The smallest amount; `nil` when empty.
    public var minimum: Int64?
    /// The largest amount; `nil` when empty.
    public var maximum: Int64?

    /// Empty figures.
    public init() {}

    /// The mean amount in minor units, rounded half away from zero; `nil` when empty.
    public var average: Int64? {
        guard count > 0 else { return nil }
        return Int64((Double(turnover) / Double(count)).rounded())
    }

    /// Adds one amount.
    public mutating func add(_ amount: Int64) {
        count += 1
        turnover &+= amount
        minimum = Swift.min(minimum ?? amount, amount)
        maximum = Swift.max(maximum ?? amount, amount)
    }

    enum CodingKeys: String, CodingKey { case count, turnover, minimum, maximum, average }

    /// Encodes the figures with the derived average.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(count, forKey: .count)
        try container.encode(turnover, forKey: .turnover)
        try container.encodeIfPresent(minimum, forKey: .minimum)
        try container.encodeIfPresent(maximum, forKey: .maximum)
        try container.encodeIfPresent(average, forKey: .average)
    }

    /// Decodes the stored figures; the average is derived.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        count = try container.decode(Int.self, forKey: .count)
        turnover = try container.decode(Int64.self, forKey: .turnover)
        minimum = try container.decodeIfPresent(Int64.self, forKey: .minimum)
        maximum = try container.decodeIfPresent(Int64.self, forKey: .maximum)
    }
}

/// One period's figures, overall and optionally by status.
public struct StatisticsGroup: Sendable, Hashable {
    /// The first instant of the period.
    public var periodStart: Date
    /// The period label, such as `2026-Q4`.
    public var period: String
    /// The currency the amounts are in.
    public var currency: String
    /// The transactions that count towards turnover.
    public var figures: StatisticsFigures
    /// Figures per status (raw ``MPOSCore/FinancialStatus`` values) over every transaction of
    /// the period, when nesting was asked for.
    public var byStatus: [String: StatisticsFigures]?
}

/// Groups transactions into periods and computes their figures. Amounts in different
/// currencies are never added together: each (period, currency) pair is its own group.
public struct StatisticsAggregator: Sendable {
    /// The grouping period.
    public let period: StatisticsPeriod
    /// Whether to nest figures by status.
    public let nestByStatus: Bool
    var groups: [String: StatisticsGroup] = [:]

    /// Creates an empty aggregator.
    public init(period: StatisticsPeriod, nestByStatus: Bool) {
        self.period = period
        self.nestByStatus = nestByStatus
    }

    /// Adds one transaction. `amount` is signed (refunds negative); `counts` says whether it
    /// belongs to turnover (approved money movements) or only to its status's figures.
    public mutating func add(
        amount: Int64, currency: String, status: FinancialStatus, at date: Date, counts: Bool = true
    ) {
        var figures = StatisticsFigures()
        figures.add(amount)
        add(figures, currency: currency, status: status, at: date, counts: counts)
    }

    /// The groups in chronological order, then by currency.
    public var result: [StatisticsGroup] {
        groups.values.sorted { ($0.period, $0.currency) < ($1.period, $1.currency) }
    }
}
