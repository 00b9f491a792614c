/// A status code reported by a card reader, as found in a command response's status field or a
/// progress report: the Handpoint HeFT codes (`EFT_`, `0x0001` to `0x0032`) and ReaderLink's
/// own update codes (`RL_UPDATE_`, from `0x0101`), which say why a reader refused an update
/// image so that the SDK never has to read the reason out of the detail text.
///
/// The raw value is the code's number. Each code also knows its name, the short
/// status message(s) the reader sends with it, and what it means for the app:
///
/// ```swift
/// let status = ReaderStatusCode(rawValue: 0x0019)   // .pinInput
/// status?.eftName                                    // "EFT_PIN_INPUT"
/// status?.message                                    // "Waiting for PIN entry"
/// ```
public enum ReaderStatusCode: UInt16, Sendable, Hashable, Codable, CaseIterable {
    /// `0x0001` EFT_SUCCESS: the operation completed.
    case success = 0x0001
    /// `0x0002` EFT_INVALID_DATA: the reader rejected the command as malformed.
    case invalidData = 0x0002
    /// `0x0003` EFT_PROCESSING_ERROR: an unexpected error while processing.
    case processingError = 0x0003
    /// `0x0004` EFT_COMMAND_NOT_ALLOWED: the reader is busy with another command.
    case commandNotAllowed = 0x0004
    /// `0x0005` EFT_NOT_INITIALISED: a pending software update must be applied first.
    case notInitialised = 0x0005
    /// `0x0006` EFT_CONNECT_TIMEOUT: the back-end connection timed out during an update.
    case connectTimeout = 0x0006
    /// `0x0007` EFT_CONNECT_ERROR: no back-end connection during an update.
    case connectError = 0x0007
    /// `0x0008` EFT_SENDING_ERROR: sending to the back end failed; outcome may be unknown.
    case sendingError = 0x0008
    /// `0x0009` EFT_RECEIVING_ERROR: receiving from the back end failed; outcome may be
    /// unknown.
    case receivingError = 0x0009
    /// `0x000A` EFT_NO_DATA_AVAILABLE: the reader's log is empty.
    case noDataAvailable = 0x000A
    /// `0x000B` EFT_TRANS_NOT_ALLOWED: not currently used.
    case transactionNotAllowed = 0x000B
    /// `0x000C` EFT_UNSUPPORTED_CURRENCY: the reader is not set up for the currency.
    case unsupportedCurrency = 0x000C
    /// `0x000D` EFT_NO_HOST_AVAILABLE: no back-end host in the configuration.
    case noHostAvailable = 0x000D
    /// `0x000E` EFT_CARD_READER_ERROR: the chip or stripe reader failed.
    case cardReaderError = 0x000E
    /// `0x000F` EFT_CARD_READING_FAILED: no data could be read from the card.
    case cardReadingFailed = 0x000F
    /// `0x0010` EFT_INVALID_CARD: the card's data is invalid.
    case invalidCard = 0x0010
    /// `0x0011` EFT_INPUT_TIMEOUT: the user did not act in time.
    case inputTimeout = 0x0011
    /// `0x0012` EFT_USER_CANCELLED: the cardholder cancelled.
    case userCancelled = 0x0012
    /// `0x0013` EFT_INVALID_SIGNATURE: the merchant rejected the signature.
    case invalidSignature = 0x0013
    /// `0x0014` EFT_WAITING_CARD: waiting for a card.
    case waitingCard = 0x0014
    /// `0x0015` EFT_CARD_INSERTED: not currently used.
    case cardInserted = 0x0015
    /// `0x0016` EFT_APPLICATION_SELECTION: waiting for the cardholder to pick an application.
    case applicationSelection = 0x0016
    /// `0x0017` EFT_APPLICATION_CONFIRMATION: waiting for the cardholder to confirm the
    /// application.
    case applicationConfirmation = 0x0017
    /// `0x0018` EFT_AMOUNT_VALIDATION: waiting for the cardholder to confirm the amount.
    case amountValidation = 0x0018
    /// `0x0019` EFT_PIN_INPUT: waiting for PIN entry.
    case pinInput = 0x0019
    /// `0x001A` EFT_MANUAL_CARD_INPUT: not currently used.
    case manualCardInput = 0x001A
    /// `0x001B` EFT_WAITING_CARD_REMOVAL: a card was left in the reader.
    case waitingCardRemoval = 0x001B
    /// `0x001C` EFT_TIP_INPUT: waiting for a tip.
    case tipInput = 0x001C
    /// `0x001D` EFT_SHARED_SECRET_INVALID: the POS app's shared secret is wrong.
    case sharedSecretInvalid = 0x001D
    /// `0x001E` EFT_SHARED_SECRET_AUTH: the reader is about to authenticate the POS app.
    case sharedSecretAuth = 0x001E
    /// `0x001F` EFT_WAITING_SIGNATURE: waiting for the merchant to judge the signature.
    case waitingSignature = 0x001F
    /// `0x0020` EFT_WAITING_HOST_CONNECT: connecting to the back end.
    case waitingHostConnect = 0x0020
    /// `0x0021` EFT_WAITING_HOST_SEND: sending to the back end.
    case waitingHostSend = 0x0021
    /// `0x0022` EFT_WAITING_HOST_RECEIVE: waiting for the back end's reply.
    case waitingHostReceive = 0x0022
    /// `0x0023` EFT_WAITING_HOST_DISCONNECT: disconnecting from the back end.
    case waitingHostDisconnect = 0x0023
    /// `0x0024` EFT_PIN_INPUT_COMPLETED: PIN entry finished.
    case pinInputCompleted = 0x0024
    /// `0x0025` EFT_POS_CANCELLED: the merchant cancelled.
    case posCancelled = 0x0025
    /// `0x0026` EFT_REQUEST_INVALID: the card is not allowed for this transaction type.
    case requestInvalid = 0x0026
    /// `0x0027` EFT_CARD_CANCELLED: the card's chip cancelled.
    case cardCancelled = 0x0027
    /// `0x0028` EFT_CARD_BLOCKED: the card is blocked.
    case cardBlocked = 0x0028
    /// `0x0029` EFT_REQUEST_AUTH_TIMEOUT: lost the back end while requesting authorisation.
    case requestAuthTimeout = 0x0029
    /// `0x002A` EFT_REQUEST_PAYMENT_TIMEOUT: lost the back end while requesting payment.
    case requestPaymentTimeout = 0x002A
    /// `0x002B` EFT_RESPONSE_AUTH_TIMEOUT: lost the back end while awaiting authorisation.
    case responseAuthTimeout = 0x002B
    /// `0x002C` EFT_RESPONSE_PAYMENT_TIMEOUT: lost the back end while awaiting the payment
    /// response; outcome unknown.
    case responsePaymentTimeout = 0x002C
    /// `0x002D` EFT_ICC_CARD_SWIPED: not currently used.
    case iccCardSwiped = 0x002D
    /// `0x002E` EFT_REMOVE_CARD: not currently used.
    case removeCard = 0x002E
    /// `0x002F` EFT_SCANNER_IS_NOT_SUPPORTED: the reader has no bar-code scanner.
    case scannerIsNotSupported = 0x002F
    /// `0x0030` EFT_SCANNER_EVENT: the bar-code scanner read something.
    case scannerEvent = 0x0030
    /// `0x0031` EFT_BATTERY_TOO_LOW: the battery is too low for the operation.
    case batteryTooLow = 0x0031
    /// `0x0032` EFT_ACCOUNT_TYPE_SELECTION: waiting for the cardholder to pick an account
    /// type.
    case accountTypeSelection = 0x0032

    /// `0x0101` RL_UPDATE_NOT_ENOUGH_SPACE: the update image is larger than the reader's room
    /// for it (answers `updateBegin`).
    case updateNotEnoughSpace = 0x0101
    /// `0x0102` RL_UPDATE_VERIFICATION_FAILED: the image received does not match its announced
    /// size, SHA-256 or signature (answers `updateVerify`); the reader discarded it.
    case updateVerificationFailed = 0x0102
    /// `0x0103` RL_UPDATE_WRITE_FAILED: the reader could not store the image or a piece of it
    /// (its flash refused the write); what it held before the piece stays.
    case updateWriteFailed = 0x0103
}
