extension Money {
    /// Parses a decimal amount typed in major units, such as `"12.34"`, into minor units.
    ///
    /// The text must be ASCII digits with at most one `.` followed by at least one digit,
    /// and no more decimal places than the currency has. Fewer are padded: `"12.3"` EUR is
    /// `1230`, `"12"` EUR is `1200`, `"1234"` JPY is `1234`. Leading zeros are allowed.
    /// Nothing else is: no sign, spaces, grouping or decimal commas, exponents or
    /// non-ASCII digits. Trailing zeros count as decimals, so `"12.340"` EUR is rejected.
    ///
    /// - Throws: ``MPOSError`` with code
    ///   - ``MPOSError/Code/currencyHasNoMinorUnits`` for a currency such as XAU or XXX;
    ///   - ``MPOSError/Code/negativeAmount`` for a `-` followed by a valid amount;
    ///   - ``MPOSError/Code/invalidAmount`` for anything that is not a plain number;
    ///   - ``MPOSError/Code/tooManyDecimals`` for more decimal places than the currency
    ///     has, including any for a currency with none (`"12.5"` JPY);
    ///   - ``MPOSError/Code/amountOverflow`` when the minor units exceed `Int64.max`.
    public static func parse(_ text: some StringProtocol, currency: Currency) throws(MPOSError) -> Money {
        guard let allowed = currency.minorUnits else {
            throw MPOSError.currencyHasNoMinorUnits.withMessage(
                "\(currency.code) has no minor units and cannot carry an amount.")
        }
        var bytes = Substring(text).utf8[...]
        if bytes.first == UInt8(ascii: "-") {
            bytes = bytes.dropFirst()
            // Only call it negative when the rest is a number; "-abc" is simply invalid.
            if case .success = scan(bytes) {
                throw MPOSError.negativeAmount.withMessage("The amount has a minus sign.")
            }
        }
        let number: Scanned
        switch scan(bytes) {
        case .success(let scanned): number = scanned
        case .failure(let error): throw error
        }
        guard number.fraction.count <= allowed else {
            throw MPOSError.tooManyDecimals.withMessage(
                "The amount has \(number.fraction.count) decimal places; "
                    + "\(currency.code) allows \(allowed).")
        }
        // Shift in every digit, then one zero per missing decimal place, checking each step.
        var minor: Int64 = 0
        func shiftIn(_ digit: UInt8) throws(MPOSError) {
            let (shifted, overflowed) = minor.multipliedReportingOverflow(by: 10)
            let (sum, carried) = shifted.addingReportingOverflow(Int64(digit &- UInt8(ascii: "0")))
            guard !overflowed, !carried else {
                throw MPOSError.amountOverflow.withMessage(
                    "The amount exceeds \(Int64.max) minor units of \(currency.code).")
            }
            minor = sum
        }
        for digit in number.integer { try shiftIn(digit) }
        for digit in number.fraction { try shiftIn(digit) }
        for _ in number.fraction.count..<allowed { try shiftIn(UInt8(ascii: "0")) }
        return Money(unchecked: minor, currency: currency)
    }

    /// The digits of a well-formed unsigned decimal number.
    private struct Scanned {
        var integer: Substring.UTF8View.SubSequence
        var fraction: Substring.UTF8View.SubSequence
    }

    /// Splits `bytes` into integer and fraction digits, or fails with `invalidAmount`.
    private static func scan(_ bytes: Substring.UTF8View.SubSequence) -> Result<Scanned, MPOSError> {
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        let dot = bytes.firstIndex(of: UInt8(ascii: "."))
        let integer = bytes[..<(dot ?? bytes.endIndex)]
        let fraction = dot.map { bytes[bytes.index(after: $0)...] } ?? bytes[bytes.endIndex...]
        guard !integer.isEmpty, integer.allSatisfy(isDigit) else {
            return .failure(
                MPOSError.invalidAmount.withMessage(
                    "The amount must start with a digit and contain only digits and one '.'."))
        }
        guard dot == nil || (!fraction.isEmpty && fraction.allSatisfy(isDigit)) else {
            return .failure(
                MPOSError.invalidAmount.withMessage(
                    "A '.' in the amount must be followed by digits only."))
        }
        return .success(Scanned(integer: integer, fraction: fraction))
    }

}
