import Foundation

/// A Terminal API amount: a JSON number in the currency's unit (`12.34` is 12.34 EUR), kept as
/// a `Decimal` read from the number's digits. It never passes through `Double`, so `0.1`,
/// `1.24` or `12345678901234567.89` are exactly what the sender wrote.
///
/// Decoding keeps any number of decimals, as nexo's decimal type does (rates such as `0.035`
/// use it too); `minorUnits(exponent:)` refuses an amount finer than its currency, such as
/// `12.345` EUR.
public struct NexoAmount: Codable, Sendable, Hashable, Comparable, CustomStringConvertible,
    ExpressibleByIntegerLiteral
{
    /// The amount.
    public let value: Decimal

    /// Wraps a decimal value.
    public init(_ value: Decimal) { self.value = value }

    /// Parses a decimal literal such as `"12.34"`; nil unless the whole text is one.
    public init?(_ text: String) {
        guard text.range(of: #"^-?[0-9]+(\.[0-9]+)?$"#, options: .regularExpression) != nil,
            let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
        else { return nil }
        self.value = value
    }

    /// An amount from minor units: `NexoAmount(minorUnits: 1234, exponent: 2)` is 12.34.
    public init(minorUnits: Int, exponent: Int) {
        self.value = Decimal(
            sign: minorUnits < 0 ? .minus : .plus, exponent: -exponent,
            significand: Decimal(minorUnits.magnitude))
    }

    /// A whole amount, for literals in code and tests.
    public init(integerLiteral value: Int) { self.value = Decimal(value) }

    /// The amount in minor units for a currency with `exponent` decimals (2 for EUR).
    ///
    /// - Throws: `NexoError` `.amountPrecision` when the amount has more decimals than the
    ///   currency, `.invalidValue` when it does not fit an `Int`.
    public func minorUnits(exponent: Int, field: String? = nil) throws(NexoError) -> Int {
        var scaled = value
        var shifted = Decimal()
        guard NSDecimalMultiplyByPowerOf10(&shifted, &scaled, Int16(exponent), .plain) == .noError else {
            throw NexoError(.invalidValue, field: field, message: "\(self) is out of range")
        }
        var rounded = Decimal()
        NSDecimalRound(&rounded, &shifted, 0, .plain)
        guard rounded == shifted else {
            throw NexoError(
                .amountPrecision, field: field,
                message: "\(self) has more than \(exponent) decimals for its currency")
        }
        guard rounded.magnitude <= Decimal(Int.max),
            let minor = Int(exactly: NSDecimalNumber(decimal: rounded).int64Value),
            Decimal(minor) == rounded
        else { throw NexoError(.invalidValue, field: field, message: "\(self) is out of range") }
        return minor
    }

    /// Decodes a JSON number through `Decimal`'s own parser of the number's text.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.value = try container.decode(Decimal.self)
        guard value.isFinite else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a finite amount")
        }
    }

    /// Encodes a JSON number with the decimal's digits.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }

    /// The sum of two amounts, exact.
    public static func + (lhs: NexoAmount, rhs: NexoAmount) -> NexoAmount {
        NexoAmount(lhs.value + rhs.value)
    }

    /// Orders by value.
    public static func < (lhs: NexoAmount, rhs: NexoAmount) -> Bool { lhs.value < rhs.value }

    /// The decimal's digits, such as `12.34`.
    public var description: String { value.description }
}
