import MPOSCore

// Cancel refusals, in MPOSKit's block of the device category.
extension MPOSError.Code {
    /// 3209: the app asked to cancel while the cardholder is entering the PIN, which the
    /// reader does not allow (only the cardholder's Cancel key stops it).
    public static let cancelDuringPINEntry = 3209
}

extension MPOSError {
    /// The app asked to cancel during PIN entry.
    public static let cancelDuringPINEntry = MPOSError(
        code: Code.cancelDuringPINEntry,
        message: "The cardholder is entering the PIN: the payment cannot be cancelled from the app now; the cardholder can press Cancel on the reader.",
        customerMessage: "Press Cancel on the card reader to stop the payment.")
}
