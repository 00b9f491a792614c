import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One line of a receipt.
public struct ReceiptLine: Codable, Sendable, Hashable {
    /// What was sold.
    public var description: String
    /// How many.
    public var quantity: Int
    /// Price of one, minor units.
    public var unitPrice: Int64
    /// Quantity times unit price.
    public var total: Int64
    /// Tax rate, basis points.
    public var taxBasisPoints: Int

    /// Creates a receipt line.
    public init(description: String, quantity: Int, unitPrice: Int64, total: Int64, taxBasisPoints: Int) {
        self.description = description
        self.quantity = quantity
        self.unitPrice = unitPrice
        self.total = total
        self.taxBasisPoints = taxBasisPoints
    }
}
