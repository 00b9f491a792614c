import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `POST /v1/transactions/search`: one page of the caller's transactions.
public struct TransactionSearchRequest: Codable, Sendable, Hashable {
    /// The page, from 1 (default 1).
    public var page: Int
    /// Transactions per page, 1...100 (default 20).
    public var pageSize: Int
    /// By creation time (default newest first).
    public var order: SortOrder
    /// By outcome (default all).
    public var status: SearchStatusFilter
    /// Free text matched against id, external id, customer reference, authorisation code,
    /// last four digits, cardholder name, and the amount in minor units.
    public var text: String?
    /// Created at or after.
    public var from: Date?
    /// Created before.
    public var to: Date?
    /// Only this kind of transaction.
    public var kind: TransactionKind?
    /// Requested amount at least this many minor units.
    public var minAmount: Int64?
    /// Requested amount at most this many minor units.
    public var maxAmount: Int64?
    /// The card number's last four digits (exactly 4 digits).
    public var cardLastFour: String?

    /// Creates a search.
    public init(
        page: Int = 1, pageSize: Int = 20, order: SortOrder = .descending,
        status: SearchStatusFilter = .all, text: String? = nil, from: Date? = nil, to: Date? = nil,
        kind: TransactionKind? = nil, minAmount: Int64? = nil, maxAmount: Int64? = nil, cardLastFour: String? = nil
    ) {
        self.kind = kind
        self.minAmount = minAmount
        self.maxAmount = maxAmount
        self.cardLastFour = cardLastFour
        self.page = page
        self.pageSize = pageSize
        self.order = order
        self.status = status
        self.text = text
        self.from = from
        self.to = to
    }

    private enum CodingKeys: String, CodingKey {
        case page, pageSize, order, status, text, from, to, kind, minAmount, maxAmount, cardLastFour
    }

    /// Decodes a search, filling in defaults for omitted fields.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.page = try c.decodeIfPresent(Int.self, forKey: .page) ?? 1
        self.pageSize = try c.decodeIfPresent(Int.self, forKey: .pageSize) ?? 20
        self.order = try c.decodeIfPresent(SortOrder.self, forKey: .order) ?? .descending
        self.status = try c.decodeIfPresent(SearchStatusFilter.self, forKey: .status) ?? .all
        self.text = try c.decodeIfPresent(String.self, forKey: .text)
        self.from = try c.decodeIfPresent(Date.self, forKey: .from)
        self.to = try c.decodeIfPresent(Date.self, forKey: .to)
        self.kind = try c.decodeIfPresent(TransactionKind.self, forKey: .kind)
        self.minAmount = try c.decodeIfPresent(Int64.self, forKey: .minAmount)
        self.maxAmount = try c.decodeIfPresent(Int64.self, forKey: .maxAmount)
        self.cardLastFour = try c.decodeIfPresent(String.self, forKey: .cardLastFour)
    }
}

/// Sort order of a search.
public enum SortOrder: String, Codable, Sendable, Hashable, CaseIterable {
    /// Oldest first.
    case ascending = "asc"
    /// Newest first (the default).
    case descending = "desc"
}

/// Which transactions a search returns, by outcome.
public enum SearchStatusFilter: String, Codable, Sendable, Hashable, CaseIterable {
    /// Approved (including partially approved).
    case approved
    /// Declined.
    case declined
    /// Reversed.
    case reversed
    /// Refunded.
    case refunded
    /// All of them (the default).
    case all
}
