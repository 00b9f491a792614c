/// An amount of money: a whole number of minor units (cents for EUR, yen for JPY,
/// fils for BHD) in a currency.
///
/// Amounts are integers so that no rounding ever happens: `12.34 EUR` is `1234` minor
/// units. The currency always has minor units; funds and metals without them (XAU, XXX)
/// cannot carry a `Money`. Amounts may be negative, for refunds and reversals, but
/// ``parse(_:currency:)`` only accepts zero or more.
///
/// ```swift
/// let price = try Money.parse("12.34", currency: .eur)   // 1234 minor units
/// price.formatted()                                      // "12.34"
/// "\(price)"                                             // "12.34 EUR"
/// let total = try price.adding(Money(amount: 66, currency: .eur))  // 13.00 EUR
/// ```
///
/// Encodes as `{"amount": 1234, "currency": "EUR"}`.
public struct Money: Hashable, Sendable {
    /// The amount in the currency's minor units; `1234` is `12.34` in EUR.
    public let amount: Int64

    /// The currency; it always has minor units.
    public let currency: Currency

    /// Creates an amount from a count of minor units, such as `Money(amount: 1234,
    /// currency: .eur)` for 12.34 EUR.
    ///
    /// - Throws: ``MPOSError/currencyHasNoMinorUnits`` when the currency has none.
    public init(amount: Int64, currency: Currency) throws(MPOSError) {
        guard currency.minorUnits != nil else {
            throw MPOSError.currencyHasNoMinorUnits.withMessage(
                "\(currency.code) has no minor units and cannot carry an amount.")
        }
        self.amount = amount
        self.currency = currency
    }

    /// Builds a value whose currency is already known to have minor units.
    init(unchecked amount: Int64, currency: Currency) {
        self.amount = amount
        self.currency = currency
    }

    /// The currency's number of decimal places.
    var decimals: Int { currency.minorUnits ?? 0 }

    /// Zero in `currency`.
    ///
    /// - Throws: ``MPOSError/currencyHasNoMinorUnits`` when the currency has none.
    public static func zero(_ currency: Currency) throws(MPOSError) -> Money {
        try Money(amount: 0, currency: currency)
    }

    /// Whether the amount is zero.
    public var isZero: Bool { amount == 0 }

    /// Whether the amount is below zero, as for a refund.
    public var isNegative: Bool { amount < 0 }
}
