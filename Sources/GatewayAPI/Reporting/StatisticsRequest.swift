import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `POST /v1/statistics`: turnover figures over a time range.
public struct StatisticsRequest: Codable, Sendable, Hashable {
    /// Start of the range, inclusive.
    public var from: Date
    /// End of the range, exclusive.
    public var to: Date
    /// The period of each bucket.
    public var grouping: StatisticsGrouping
    /// Whether each bucket also holds one nested bucket per transaction status (default
    /// `false`).
    public var byStatus: Bool
    /// Only this currency; `nil` for the merchant's default currency.
    public var currency: Currency?

    /// Creates the request.
    public init(
        from: Date, to: Date, grouping: StatisticsGrouping, byStatus: Bool = false, currency: Currency? = nil
    ) {
        self.from = from
        self.to = to
        self.grouping = grouping
        self.byStatus = byStatus
        self.currency = currency
    }

    private enum CodingKeys: String, CodingKey { case from, to, grouping, byStatus, currency }

    /// Decodes the request; `byStatus` defaults to `false`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.from = try c.decode(Date.self, forKey: .from)
        self.to = try c.decode(Date.self, forKey: .to)
        self.grouping = try c.decode(StatisticsGrouping.self, forKey: .grouping)
        self.byStatus = try c.decodeIfPresent(Bool.self, forKey: .byStatus) ?? false
        self.currency = try c.decodeIfPresent(Currency.self, forKey: .currency)
    }
}

/// The period statistics are grouped by.
public enum StatisticsGrouping: String, Codable, Sendable, Hashable, CaseIterable {
    /// Calendar day (UTC).
    case day
    /// ISO week, Monday first (UTC).
    case week
    /// Calendar month.
    case month
    /// Calendar quarter.
    case quarter
    /// Calendar year.
    case year
}
