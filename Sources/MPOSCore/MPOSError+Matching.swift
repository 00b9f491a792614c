extension MPOSError {
    /// Matches any thrown error against an `MPOSError` constant by code, so untyped
    /// `catch` clauses can name one: `catch MPOSError.amountOverflow { ... }`.
    public static func ~= (pattern: MPOSError, value: any Error) -> Bool {
        (value as? MPOSError)?.code == pattern.code
    }

    /// Matches an error against a numeric code, so a `switch` over an error can list
    /// codes: `case MPOSError.Code.negativeAmount:`.
    public static func ~= (pattern: Int, value: MPOSError) -> Bool {
        value.code == pattern
    }
}
