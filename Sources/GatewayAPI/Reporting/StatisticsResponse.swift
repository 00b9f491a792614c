import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The answer to a statistics request.
public struct StatisticsResponse: Codable, Sendable, Hashable {
    /// The currency of every amount.
    public var currency: Currency
    /// The grouping asked for.
    public var grouping: StatisticsGrouping
    /// One bucket per period that has transactions, oldest first.
    public var buckets: [StatisticsBucket]

    /// Creates the answer.
    public init(currency: Currency, grouping: StatisticsGrouping, buckets: [StatisticsBucket]) {
        self.currency = currency
        self.grouping = grouping
        self.buckets = buckets
    }
}

/// One period of statistics. Turnover counts approved sales and captures (tips included)
/// minus refunds; min/max/average are over those transactions' totals.
public struct StatisticsBucket: Codable, Sendable, Hashable {
    /// Start of the period.
    public var periodStart: Date
    /// A label such as `"2026-11-23"`, `"2026-W48"`, `"2026-11"`, `"2026-Q4"`, `"2026"`.
    public var label: String
    /// Number of transactions.
    public var count: Int
    /// Turnover, minor units.
    public var turnover: Int64
    /// Smallest total.
    public var minimum: Int64?
    /// Largest total.
    public var maximum: Int64?
    /// Mean total.
    public var average: Int64?
    /// Per status, when asked for.
    public var byStatus: [StatusStatistics]?

    /// Creates a bucket.
    public init(
        periodStart: Date, label: String, count: Int, turnover: Int64, minimum: Int64?,
        maximum: Int64?, average: Int64?, byStatus: [StatusStatistics]? = nil
    ) {
        self.periodStart = periodStart
        self.label = label
        self.count = count
        self.turnover = turnover
        self.minimum = minimum
        self.maximum = maximum
        self.average = average
        self.byStatus = byStatus
    }
}

/// Figures of one status within a statistics bucket.
public struct StatusStatistics: Codable, Sendable, Hashable {
    /// The status.
    public var status: FinancialStatus
    /// Number of transactions.
    public var count: Int
    /// Sum of their totals, minor units.
    public var turnover: Int64
    /// Smallest total (nil when count is 0).
    public var minimum: Int64?
    /// Largest total.
    public var maximum: Int64?
    /// Mean total, rounded half away from zero.
    public var average: Int64?

    /// Creates status figures.
    public init(
        status: FinancialStatus, count: Int, turnover: Int64, minimum: Int64?, maximum: Int64?,
        average: Int64?
    ) {
        self.status = status
        self.count = count
        self.turnover = turnover
        self.minimum = minimum
        self.maximum = maximum
        self.average = average
    }
}
