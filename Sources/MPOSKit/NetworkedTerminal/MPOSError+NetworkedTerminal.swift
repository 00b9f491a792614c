import MPOSCore

extension MPOSError.Code {
    /// 3301: the networked terminal answered a request with a failure that is no refusal of
    /// the card (`NotAllowed`, `MessageFormat`, `UnavailableService`, …), or an answer that did
    /// not authenticate under the key.
    public static let networkedTerminalRefused = 3301
    /// 9151: the networked terminal's answer was lost and TransactionStatus could not learn
    /// the outcome in time: the journal keeps the attempt, and the next connect (or
    /// `recovery.recoverUnfinishedAttempts()`) settles it.
    public static let networkedTerminalOutcomeUnknown = 9151
}

extension MPOSError {
    /// The networked terminal refused the request (its condition and message are in this
    /// error's message).
    public static let networkedTerminalRefused = MPOSError(
        code: Code.networkedTerminalRefused, message: "The networked terminal refused the request.")

    /// The networked terminal's outcome is not known yet; nothing is sent again.
    public static let networkedTerminalOutcomeUnknown = MPOSError(
        code: Code.networkedTerminalOutcomeUnknown,
        message: "The networked terminal's answer was lost and its outcome is not known yet.")
}
