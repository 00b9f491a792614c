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

    /// Creates a search.
    public init(
        page: Int = 1, pageSize: Int = 20, order: SortOrder = .descending,
        status: SearchStatusFilter = .all, text: String? = nil, from: Date? = nil, to: Date? = nil
    ) {
        self.page = page
        self.pageSize = pageSize
        self.order = order
        self.status = status
        self.text = text
        self.from = from
        self.to = to
    }

    private enum CodingKeys: String, CodingKey {
        case page, pageSize, order, status, text, from, to
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
