extension Money: CustomStringConvertible {
    /// The amount in major units with a `.` before the minor digits and no grouping:
    /// `"12.34"` (EUR), `"1234"` (JPY), `"1.234"` (BHD), `"-12.34"` for a negative
    /// amount. ``parse(_:currency:)`` reads back any non-negative result.
    public func formatted() -> String {
        let digits = String(amount.magnitude)  // `magnitude` is safe for Int64.min
        let decimals = self.decimals
        let sign = amount < 0 ? "-" : ""
        guard decimals > 0 else { return sign + digits }
        let padded = String(repeating: "0", count: max(0, decimals + 1 - digits.count)) + digits
        let split = padded.index(padded.endIndex, offsetBy: -decimals)
        return sign + padded[..<split] + "." + padded[split...]
    }

    /// The formatted amount followed by the currency code: `"12.34 EUR"`.
    public var description: String { "\(formatted()) \(currency.code)" }
}
