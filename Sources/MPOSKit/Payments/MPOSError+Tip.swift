import MPOSCore

// The reader's tip prompt (``GatewayAPI/TipOptions``).
extension MPOSError.Code {
    /// 1140: the tip options break a rule (nothing to choose, more than six presets, a
    /// percentage outside 1...100, an amount not above zero, a repeated preset, a total over
    /// the maximum) or come with an operation that takes no tip.
    public static let invalidTipOptions = 1140
}

extension MPOSError {
    /// The tip options were refused (before any I/O).
    public static let invalidTipOptions = MPOSError(
        code: Code.invalidTipOptions,
        message: "The tip options are invalid: 1 to 6 presets, percentages 1 to 100, amounts above zero.")
}
