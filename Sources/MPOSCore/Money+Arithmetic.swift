extension Money {
    /// The sum of two amounts in the same currency.
    ///
    /// - Throws: ``MPOSError/currencyMismatch`` when the currencies differ;
    ///   ``MPOSError/amountOverflow`` when the sum does not fit in `Int64`.
    public func adding(_ other: Money) throws(MPOSError) -> Money {
        try combine(other, "add", Int64.addingReportingOverflow)
    }

    /// This amount minus `other`, which must be in the same currency. The result may be
    /// negative.
    ///
    /// - Throws: ``MPOSError/currencyMismatch`` when the currencies differ;
    ///   ``MPOSError/amountOverflow`` when the difference does not fit in `Int64`.
    public func subtracting(_ other: Money) throws(MPOSError) -> Money {
        try combine(other, "subtract", Int64.subtractingReportingOverflow)
    }

    /// The amount with its sign flipped, as for turning a sale into a refund.
    ///
    /// - Throws: ``MPOSError/amountOverflow`` for `Int64.min`, which has no positive
    ///   counterpart.
    public func negated() throws(MPOSError) -> Money {
        try Money.zero(currency).subtracting(self)
    }

    private func combine(
        _ other: Money, _ verb: String,
        _ operation: (Int64) -> (Int64) -> (partialValue: Int64, overflow: Bool)
    ) throws(MPOSError) -> Money {
        guard currency == other.currency else {
            throw MPOSError.currencyMismatch.withMessage(
                "Cannot \(verb) \(currency.code) and \(other.currency.code) amounts.")
        }
        let (result, overflow) = operation(amount)(other.amount)
        guard !overflow else {
            throw MPOSError.amountOverflow.withMessage(
                "The result of the \(verb) operation does not fit in 64-bit minor units.")
        }
        return Money(unchecked: result, currency: currency)
    }
}
