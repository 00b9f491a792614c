import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One page of search results.
public struct TransactionPage: Codable, Sendable, Hashable {
    /// The transactions on this page.
    public var items: [Transaction]
    /// The page number, from 1.
    public var page: Int
    /// The page size asked for.
    public var pageSize: Int
    /// How many transactions match in all.
    public var totalCount: Int

    /// Creates a page.
    public init(items: [Transaction], page: Int, pageSize: Int, totalCount: Int) {
        self.items = items
        self.page = page
        self.pageSize = pageSize
        self.totalCount = totalCount
    }
}
