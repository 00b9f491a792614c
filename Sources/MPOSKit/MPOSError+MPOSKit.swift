import MPOSCore

// MPOSKit's block of codes: x100...x199 in each category (MPOSCore holds x000...x099,
// ReaderLink 3101...3199).
extension MPOSError.Code {
    /// 1101: a payment amount is zero or negative.
    public static let amountNotPositive = 1101
    /// 1102: the external id is longer than 50 characters.
    public static let externalIDTooLong = 1102
    /// 1103: the statement descriptor breaks a rule (length, letter, forbidden character).
    public static let invalidStatementDescriptor = 1103
    /// 1104: another operation is running on the terminal.
    public static let terminalBusy = 1104
    /// 1105: the terminal has no gateway session; call `login()` first.
    public static let notLoggedIn = 1105
    /// 1106: a transaction id or other argument is malformed.
    public static let invalidArgument = 1106
    /// 1107: the basket breaks a rule (its lines, gratuity and service charge must add up to
    /// the amount; see `GatewayValidation.basketProblem`).
    public static let invalidBasket = 1107
    /// 1108: the instalment plan breaks a rule (2...99 instalments, 1...12 months apart).
    public static let invalidInstallments = 1108
    /// 2101: the payment was cancelled (by the app, the cardholder or a timeout).
    public static let paymentCancelled = 2101
    /// 3201: no card reader is connected.
    public static let readerNotConnected = 3201
    /// 3202: the reader link failed during an operation.
    public static let readerLinkFailed = 3202
    /// 3203: the reader was not reached and paired within the connect timeout.
    public static let readerConnectTimeout = 3203
    /// 3204: the reader answered a request with an error status (its message names the status).
    public static let readerRefused = 3204
    /// 3205: an update's deadline passed; the reader takes no payment until it is installed.
    public static let updateRequired = 3205
    /// 4101: the gateway refused the request (its code is in the message).
    public static let gatewayRefused = 4101
    /// 4102: the gateway refused the credentials.
    public static let gatewayUnauthorized = 4102
    /// 5101: the payment journal could not be read or written.
    public static let journalFailed = 5101
    /// 5102: the payment journal belongs to another gateway or merchant.
    public static let journalOwnedElsewhere = 5102
    /// 9101: the gateway could not be reached or did not answer.
    public static let gatewayUnreachable = 9101
}

extension MPOSError {
    /// The amount is zero or negative.
    public static let amountNotPositive = MPOSError(
        code: Code.amountNotPositive, message: "The amount must be greater than zero.",
        customerMessage: "Enter an amount greater than zero.")
    /// The external id is longer than 50 characters.
    public static let externalIDTooLong = MPOSError(
        code: Code.externalIDTooLong, message: "The external id is longer than 50 characters.")
    /// The statement descriptor breaks a rule.
    public static let invalidStatementDescriptor = MPOSError(
        code: Code.invalidStatementDescriptor,
        message: "The statement descriptor must be 1 to 22 characters with a letter and none of < > \" '.")
    /// Another operation is running.
    public static let terminalBusy = MPOSError(
        code: Code.terminalBusy, message: "Another operation is running on the terminal.",
        customerMessage: "Please wait for the current operation to finish.")
    /// No gateway session.
    public static let notLoggedIn = MPOSError(
        code: Code.notLoggedIn, message: "The terminal has no gateway session; call login() first.")
    /// A malformed argument.
    public static let invalidArgument = MPOSError(code: Code.invalidArgument, message: "An argument is malformed.")
    /// The basket is invalid.
    public static let invalidBasket = MPOSError(
        code: Code.invalidBasket, message: "The basket is invalid or does not add up to the amount.")
    /// The instalment plan is invalid.
    public static let invalidInstallments = MPOSError(
        code: Code.invalidInstallments, message: "The instalment plan needs 2 to 99 instalments, 1 to 12 months apart.")
    /// The payment was cancelled.
    public static let paymentCancelled = MPOSError(
        code: Code.paymentCancelled, message: "The payment was cancelled.", customerMessage: "Payment cancelled.")
    /// No reader connected.
    public static let readerNotConnected = MPOSError(
        code: Code.readerNotConnected, message: "No card reader is connected.",
        customerMessage: "Connect the card reader and try again.")
    /// The reader link failed.
    public static let readerLinkFailed = MPOSError(
        code: Code.readerLinkFailed, message: "The card reader link failed.",
        customerMessage: "The card reader was disconnected.")
    /// The reader was not reached and paired in time.
    public static let readerConnectTimeout = MPOSError(
        code: Code.readerConnectTimeout, message: "The card reader was not reached and paired within the timeout.",
        customerMessage: "The card reader is not responding. Check it is on and nearby.")
    /// The reader answered a request with an error status.
    public static let readerRefused = MPOSError(
        code: Code.readerRefused, message: "The card reader refused the request.")
    /// An update's deadline passed with the update not installed.
    public static let updateRequired = MPOSError(
        code: Code.updateRequired,
        message: "The reader's update deadline has passed: install its updates (downloadAndApplyUpdate) to take payments.",
        customerMessage: "This card reader needs an update before it can take payments.")
    /// The gateway refused the request.
    public static let gatewayRefused = MPOSError(code: Code.gatewayRefused, message: "The gateway refused the request.")
    /// The gateway refused the credentials.
    public static let gatewayUnauthorized = MPOSError(
        code: Code.gatewayUnauthorized, message: "The gateway refused the credentials.",
        customerMessage: "Sign in again.")
    /// The journal failed.
    public static let journalFailed = MPOSError(code: Code.journalFailed, message: "The payment journal failed.")
    /// The journal holds another gateway's or merchant's attempts; use another journal file.
    public static let journalOwnedElsewhere = MPOSError(
        code: Code.journalOwnedElsewhere,
        message: "The payment journal belongs to another gateway or merchant; use another journal file.")
    /// The gateway could not be reached.
    public static let gatewayUnreachable = MPOSError(
        code: Code.gatewayUnreachable, message: "The gateway could not be reached.",
        customerMessage: "No connection to the payment service.")
}
