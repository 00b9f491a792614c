import MPOSCore
import TerminalAPI

extension MPOSError.Code {
    /// 1109: bytes given as a Terminal API request are not one (not JSON, no readable
    /// `MessageHeader`, or an encrypted message handed over undecrypted).
    public static let terminalAPIMessageInvalid = 1109
}

extension MPOSError {
    /// Bytes given as a Terminal API request could not be read as one.
    public static let terminalAPIMessageInvalid = MPOSError(
        code: Code.terminalAPIMessageInvalid, message: "The bytes are not a Terminal API request.")

    /// The MPOSError for a Terminal API message that could not be read: code
    /// ``terminalAPIMessageInvalid``, the `NexoError`'s code, field and message in its message
    /// (never a value, so no card data).
    public static func terminalAPI(_ error: NexoError) -> MPOSError {
        terminalAPIMessageInvalid.withMessage(
            "The Terminal API request could not be read: \(error.description)")
    }
}
