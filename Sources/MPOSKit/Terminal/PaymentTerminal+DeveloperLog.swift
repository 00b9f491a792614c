import Logging

extension PaymentTerminal {
    /// Turns the developer log on with `logger` (nil turns it off; it is off by default). While
    /// on, every gateway request and response is logged at `debug` (method, path, status and
    /// body) and every card payment's outcome at `info` (kind, status, amounts, ids, masked
    /// card, response code). Passwords, tokens, `Authorization` headers, the reader's card
    /// ciphertext and EMV data are replaced by `[REDACTED]`, and any card number left in a
    /// text is cut to its first six and last four digits, before the logger sees anything.
    ///
    /// ```swift
    /// var logger = Logger(label: "com.example.pos.mposkit")
    /// logger.logLevel = .debug
    /// terminal.setDeveloperLogging(logger)
    /// ```
    public nonisolated func setDeveloperLogging(_ logger: Logger?) { developerLog.set(logger) }
}
