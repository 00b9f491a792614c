import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The tax of one rate on a receipt (prices include tax).
public struct ReceiptTax: Codable, Sendable, Hashable {
    /// The rate, basis points.
    public var basisPoints: Int
    /// The net amount at this rate.
    public var netAmount: Int64
    /// The tax at this rate.
    public var taxAmount: Int64

    /// Creates a tax line.
    public init(basisPoints: Int, netAmount: Int64, taxAmount: Int64) {
        self.basisPoints = basisPoints
        self.netAmount = netAmount
        self.taxAmount = taxAmount
    }
}
