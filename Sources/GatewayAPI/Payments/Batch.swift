import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `POST /v1/batches/close`: a closed settlement batch.
public struct Batch: Codable, Sendable, Hashable {
    /// The batch id.
    public var id: String
    /// When its first transaction was recorded (or it was opened).
    public var openedAt: Date
    /// When it was closed.
    public var closedAt: Date
    /// Number of transactions in it.
    public var transactionCount: Int
    /// Totals per currency.
    public var totals: [BatchTotal]

    /// Creates a batch.
    public init(id: String, openedAt: Date, closedAt: Date, transactionCount: Int, totals: [BatchTotal]) {
        self.id = id
        self.openedAt = openedAt
        self.closedAt = closedAt
        self.transactionCount = transactionCount
        self.totals = totals
    }
}

/// A currency's totals in a batch.
public struct BatchTotal: Codable, Sendable, Hashable {
    /// The currency.
    public var currency: Currency
    /// Number of sales and captures.
    public var saleCount: Int
    /// Their total, minor units, tips included.
    public var saleAmount: Int64
    /// Number of refunds.
    public var refundCount: Int
    /// Their total, minor units.
    public var refundAmount: Int64
    /// Sales minus refunds.
    public var netAmount: Int64

    /// Creates a batch total.
    public init(
        currency: Currency, saleCount: Int, saleAmount: Int64, refundCount: Int, refundAmount: Int64,
        netAmount: Int64
    ) {
        self.currency = currency
        self.saleCount = saleCount
        self.saleAmount = saleAmount
        self.refundCount = refundCount
        self.refundAmount = refundAmount
        self.netAmount = netAmount
    }
}
