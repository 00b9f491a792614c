extension MPOSError {
    /// The stable numeric codes, as constants to compare ``MPOSError/code`` with.
    ///
    /// This is a namespace: other modules add their own codes in extensions, inside the
    /// range of the right ``MPOSError/Category``. A released code never changes meaning
    /// and is never reused.
    public enum Code {
        /// 1001: an amount is not a plain decimal number (`"abc"`, `"1,00"`, `"1e3"`).
        public static let invalidAmount = 1001
        /// 1002: an amount has more decimal places than its currency allows.
        public static let tooManyDecimals = 1002
        /// 1003: an amount is negative where only zero or more is allowed.
        public static let negativeAmount = 1003
        /// 1004: an amount does not fit in 64-bit minor units, or arithmetic overflowed.
        public static let amountOverflow = 1004
        /// 1005: the currency has no minor units (metals, funds, XTS, XXX), so no amount
        /// can be expressed in it.
        public static let currencyHasNoMinorUnits = 1005
        /// 1006: a currency code is not an active ISO 4217 code.
        public static let unknownCurrency = 1006
        /// 1007: two amounts in different currencies were combined.
        public static let currencyMismatch = 1007
        /// 1008: an identifier (transaction ID, idempotency key) is malformed.
        public static let invalidIdentifier = 1008
    }

    /// The amount is not a plain decimal number: ASCII digits with at most one `.`, no
    /// sign, spaces, grouping separators or exponent.
    public static let invalidAmount = MPOSError(
        code: Code.invalidAmount,
        message: "The amount is not a plain decimal number.",
        customerMessage: "Enter a valid amount.")

    /// The amount has more decimal places than the currency's minor units.
    public static let tooManyDecimals = MPOSError(
        code: Code.tooManyDecimals,
        message: "The amount has more decimal places than the currency allows.",
        customerMessage: "The amount has too many decimal places.")

    /// The amount is negative.
    public static let negativeAmount = MPOSError(
        code: Code.negativeAmount,
        message: "The amount is negative.",
        customerMessage: "The amount cannot be negative.")

    /// The amount does not fit in a signed 64-bit count of minor units.
    public static let amountOverflow = MPOSError(
        code: Code.amountOverflow,
        message: "The amount does not fit in 64-bit minor units.",
        customerMessage: "The amount is too large.")

    /// The currency has no minor units, so amounts cannot be expressed in it.
    public static let currencyHasNoMinorUnits = MPOSError(
        code: Code.currencyHasNoMinorUnits,
        message: "The currency has no minor units and cannot carry an amount.")

    /// The currency code is not an active ISO 4217 code.
    public static let unknownCurrency = MPOSError(
        code: Code.unknownCurrency,
        message: "The currency code is not an active ISO 4217 code.")

    /// Two amounts in different currencies were combined.
    public static let currencyMismatch = MPOSError(
        code: Code.currencyMismatch,
        message: "The amounts are in different currencies.")

    /// An identifier is malformed.
    public static let invalidIdentifier = MPOSError(
        code: Code.invalidIdentifier,
        message: "The identifier is malformed.")
}
