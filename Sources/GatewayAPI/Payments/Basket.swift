import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the customer bought; when present the request's amount must equal the sum of the
/// lines plus gratuity and service charge.
public struct Basket: Codable, Sendable, Hashable {
    /// The lines.
    public var items: [BasketItem]
    /// Tip included in the amount, in minor units.
    public var gratuity: Int64?
    /// Service charge included in the amount, in minor units.
    public var serviceCharge: Int64?
    /// Where the sale took place.
    public var location: GeoLocation?

    /// Creates a basket.
    public init(
        items: [BasketItem], gratuity: Int64? = nil, serviceCharge: Int64? = nil, location: GeoLocation? = nil
    ) {
        self.items = items
        self.gratuity = gratuity
        self.serviceCharge = serviceCharge
        self.location = location
    }
}

/// One line of a basket.
public struct BasketItem: Codable, Sendable, Hashable {
    /// What was sold, 1...100 characters.
    public var name: String
    /// How many, 1 or more.
    public var quantity: Int
    /// Price of one, in minor units, tax included.
    public var unitPrice: Int64
    /// Tax rate in basis points: 1900 is 19 % (the Accept convention: 700 is 7 %).
    public var taxBasisPoints: Int
    /// The merchant's article number, if any.
    public var sku: String?

    /// Creates a basket line.
    public init(name: String, quantity: Int, unitPrice: Int64, taxBasisPoints: Int = 0, sku: String? = nil) {
        self.name = name
        self.quantity = quantity
        self.unitPrice = unitPrice
        self.taxBasisPoints = taxBasisPoints
        self.sku = sku
    }
}

/// Where a payment was taken.
public struct GeoLocation: Codable, Sendable, Hashable {
    /// Degrees north, -90...90.
    public var latitude: Double
    /// Degrees east, -180...180.
    public var longitude: Double

    /// Creates a location.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}
