extension ReaderStatusCode {
    /// The code's name in the reader documentation, such as `"EFT_PIN_INPUT"`; ReaderLink's
    /// own update codes are named `RL_UPDATE_…`, such as `"RL_UPDATE_NOT_ENOUGH_SPACE"`.
    public var eftName: String { details.name }

    /// Whether the code is one of ReaderLink's own update codes (`0x0101` on) rather than a
    /// Handpoint `EFT_` code.
    public var isUpdateCode: Bool { rawValue >= 0x0101 }

    /// Every status message the reader may send with the code, in the documented order.
    /// Most codes have one; `success` has four (the first is empty) and `userCancelled`
    /// two. A message may be empty, as for `scannerEvent`.
    public var messages: [String] { details.messages }

    /// The first documented status message, such as `"Waiting for PIN entry"`.
    public var message: String { details.messages[0] }

    /// What the code means and what, if anything, the app or the merchant should do.
    public var meaning: String { details.meaning }

    /// Whether the reader documentation marks the code as currently unused.
    public var isCurrentlyUsed: Bool { details.meaning != Self.unused }

    /// Whether the code can leave a sale or refund in an unknown state, so the merchant
    /// must find out whether it went through before trying again, to avoid charging twice.
    public var leavesOutcomeUnknown: Bool {
        switch self {
        case .sendingError, .receivingError, .responsePaymentTimeout: true
        default: false
        }
    }

    private static let unused = "Not currently used by the reader."
    private static let retryThenSupport =
        "Try again; if it keeps happening, contact technical support with the reader logs."
    private static let inDoubt =
        "If a sale or refund was in progress, its outcome is unknown: before trying again, "
        + "contact technical support to confirm whether it went through, or risk charging the "
        + "cardholder twice. Support may ask for the reader logs."
    private static let lostHost =
        "Check that the phone or computer is online and try again; if it keeps happening, "
        + "contact technical support, who may ask for the reader logs."
    private static let badCard =
        "Try again; if it keeps happening the card may be faulty, so try another card; if that "
        + "fails too the reader may need replacing: contact technical support."

    // swift-format-ignore
    private var details: (name: String, messages: [String], meaning: String) {
        switch self {
        case .success:
            ("EFT_SUCCESS", ["", "AUTH CODE #", "REFUND ACCEPTED", "REVERSAL ACCEPTED"],
             "The operation finished successfully; nothing more to do.")
        case .invalidData:
            ("EFT_INVALID_DATA", ["Invalid data"],
             "The reader rejected the command the POS app sent to start the operation as "
                + "malformed. " + Self.retryThenSupport)
        case .processingError:
            ("EFT_PROCESSING_ERROR", ["Processing error"],
             "Something unexpected went wrong while the reader was processing. "
                + Self.retryThenSupport)
        case .commandNotAllowed:
            ("EFT_COMMAND_NOT_ALLOWED", ["Command not allowed"],
             "The reader is busy with another command. Try again once that operation has "
                + "finished.")
        case .notInitialised:
            ("EFT_NOT_INITIALISED", ["Device is not initialized"],
             "A software update is pending and must be applied before the reader can go on. "
                + "Try again after the reader has restarted itself.")
        case .connectTimeout:
            ("EFT_CONNECT_TIMEOUT", ["Connection time out detected"],
             "The connection to the back end timed out during an update. " + Self.retryThenSupport)
        case .connectError:
            ("EFT_CONNECT_ERROR", ["Connection error"],
             "The reader could not connect to the back end during an update. "
                + Self.retryThenSupport)
        case .sendingError:
            ("EFT_SENDING_ERROR", ["Send error"],
             "Communication with the back end failed while sending. " + Self.inDoubt)
        case .receivingError:
            ("EFT_RECEIVING_ERROR", ["Receiving error"],
             "Communication with the back end failed while receiving. " + Self.inDoubt)
        case .noDataAvailable:
            ("EFT_NO_DATA_AVAILABLE", ["No data available"],
             "The POS app asked for the reader's log, but the log is empty. If logs are "
                + "needed, set a suitable log level and try again.")
        case .transactionNotAllowed:
            ("EFT_TRANS_NOT_ALLOWED", ["Transaction not allowed"], Self.unused)
        case .unsupportedCurrency:
            ("EFT_UNSUPPORTED_CURRENCY", ["Currency not supported"],
             "The reader is not configured for the chosen currency. Choose the right currency "
                + "and try again, or ask technical support to enable this one.")
        case .noHostAvailable:
            ("EFT_NO_HOST_AVAILABLE", ["No host configuration found"],
             "An update started, but the reader's otherwise valid configuration holds no back-end "
                + "host details (a faulty hostBlock in the HostList an earlier update installed). "
                + "The reader cannot update itself and must be replaced: contact technical "
                + "support with the reader logs.")
        case .cardReaderError:
            ("EFT_CARD_READER_ERROR", ["Card reader error"],
             "The chip reader or the magnetic stripe reader failed. Try again; if it keeps "
                + "happening, contact technical support with the reader logs and ask for a "
                + "replacement reader.")
        case .cardReadingFailed:
            ("EFT_CARD_READING_FAILED", ["Failed to read card data"],
             "No data could be read from the card. " + Self.badCard)
        case .invalidCard:
            ("EFT_INVALID_CARD", ["INVALID CARD"],
             "The reader found the card's data invalid. " + Self.badCard)
        case .inputTimeout:
            ("EFT_INPUT_TIMEOUT", ["Timeout waiting for user input"],
             "The reader stopped waiting for the user to act. Nothing more to do.")
        case .userCancelled:
            ("EFT_USER_CANCELLED", ["TRANSACTION VOID", "User cancelled the transaction"],
             "The cardholder cancelled the operation. Nothing more to do.")
        case .invalidSignature:
            ("EFT_INVALID_SIGNATURE", ["TRANSACTION VOID"],
             "The merchant judged the cardholder's signature invalid. Nothing more to do.")
        case .waitingCard:
            ("EFT_WAITING_CARD", ["Waiting for card"],
             "The reader waits for a card to be inserted in the chip reader, or swiped on "
                + "readers with an external magnetic stripe reader. Insert or swipe to go on.")
        case .cardInserted:
            ("EFT_CARD_INSERTED", ["Card detected"], Self.unused)
        case .applicationSelection:
            ("EFT_APPLICATION_SELECTION", ["Waiting for application selection"],
             "The reader waits for the cardholder to choose which card application to use "
                + "(such as VISA or MASTERCARD) and press OK; C/Cancel aborts the transaction.")
        case .applicationConfirmation:
            ("EFT_APPLICATION_CONFIRMATION", ["Waiting for application confirmation"],
             "The reader waits for the cardholder to accept the card application shown with "
                + "OK, or refuse it with C/Cancel.")
        case .amountValidation:
            ("EFT_AMOUNT_VALIDATION", ["Waiting for amount validation"],
             "The reader waits for the cardholder to accept the amount shown with OK, or "
                + "refuse it with C/Cancel.")
        case .pinInput:
            ("EFT_PIN_INPUT", ["Waiting for PIN entry"],
             "The reader waits for the cardholder to type the PIN and press OK. OK with no "
                + "digits bypasses the PIN and falls back to a signature; C/Cancel aborts the "
                + "transaction. The POS app cannot cancel at this point.")
        case .manualCardInput:
            ("EFT_MANUAL_CARD_INPUT", ["Waiting for manual card data"], Self.unused)
        case .waitingCardRemoval:
            ("EFT_WAITING_CARD_REMOVAL", ["Waiting for card removal"],
             "A card was already in the reader when the transaction started, probably left "
                + "from an earlier one. Remove it and start the operation again.")
        case .tipInput:
            ("EFT_TIP_INPUT", ["Waiting for gratuity"],
             "The reader waits for the cardholder to enter or confirm a tip.")
        case .sharedSecretInvalid:
            ("EFT_SHARED_SECRET_INVALID", ["Shared Secret invalid"],
             "The reader believes the POS app holds the wrong shared secret, so no financial "
                + "operation (sale, refund, ...) is possible. Enter the correct shared secret in "
                + "the POS app, or contact technical support.")
        case .sharedSecretAuth:
            ("EFT_SHARED_SECRET_AUTH", ["Authenticating POS"],
             "The reader is about to challenge the POS app to prove it holds the right shared "
                + "secret. Nothing to do.")
        case .waitingSignature:
            ("EFT_WAITING_SIGNATURE", ["Waiting for signature"],
             "The reader waits for the merchant to accept or decline the cardholder's "
                + "signature in the POS app; the reader's own Cancel and OK keys do nothing here.")
        case .waitingHostConnect:
            ("EFT_WAITING_HOST_CONNECT", ["Connecting to host"],
             "The reader is connecting to the back end. Nothing to do.")
        case .waitingHostSend:
            ("EFT_WAITING_HOST_SEND", ["Sending data to host"],
             "The reader is sending data to the back end. Nothing to do.")
        case .waitingHostReceive:
            ("EFT_WAITING_HOST_RECEIVE", ["Waiting for data from host"],
             "The reader waits for the back end's reply. Nothing to do.")
        case .waitingHostDisconnect:
            ("EFT_WAITING_HOST_DISCONNECT", ["Disconnecting from host"],
             "The reader is closing its connection to the back end. Nothing to do.")
        case .pinInputCompleted:
            ("EFT_PIN_INPUT_COMPLETED", ["PIN entry completed"],
             "The cardholder has finished entering the PIN. Nothing to do.")
        case .posCancelled:
            ("EFT_POS_CANCELLED", ["TRANSACTION VOID"],
             "The merchant cancelled the operation. Nothing more to do.")
        case .requestInvalid:
            ("EFT_REQUEST_INVALID", ["Request invalid"],
             "The card may not be used for this type of transaction.")
        case .cardCancelled:
            ("EFT_CARD_CANCELLED", ["TRANSACTION VOID"],
             "The card's chip cancelled the transaction. Nothing more to do.")
        case .cardBlocked:
            ("EFT_CARD_BLOCKED", ["CARD BLOCKED"],
             "The card is blocked. Try again with a card that is not.")
        case .requestAuthTimeout:
            ("EFT_REQUEST_AUTH_TIMEOUT", ["Request for authorisation timed out"],
             "The reader lost contact with the back end while requesting authorisation. "
                + Self.lostHost)
        case .requestPaymentTimeout:
            ("EFT_REQUEST_PAYMENT_TIMEOUT", ["Request for payment timed out"],
             "The reader lost contact with the back end while requesting payment. "
                + Self.lostHost)
        case .responseAuthTimeout:
            ("EFT_RESPONSE_AUTH_TIMEOUT", ["Response to authorisation request timed out"],
             "The reader lost contact with the back end while waiting for the authorisation "
                + "response. " + Self.lostHost)
        case .responsePaymentTimeout:
            ("EFT_RESPONSE_PAYMENT_TIMEOUT", ["Response to payment request timed out"],
             "The reader lost contact with the back end while waiting for the payment "
                + "response, so the outcome is unknown. Contact technical support to confirm "
                + "whether the transaction went through, or risk charging the cardholder twice; "
                + "support may ask for the reader logs. Only once it is confirmed not to have "
                + "gone through, check that the phone or computer is online and try again.")
        case .iccCardSwiped:
            ("EFT_ICC_CARD_SWIPED", ["Please insert card in chip reader"], Self.unused)
        case .removeCard:
            ("EFT_REMOVE_CARD", ["Remove the card from the reader"], Self.unused)
        case .scannerIsNotSupported:
            ("EFT_SCANNER_IS_NOT_SUPPORTED", ["This device does not have a scanner"],
             "The reader has no bar-code scanner. Nothing to do.")
        case .scannerEvent:
            ("EFT_SCANNER_EVENT", [""],
             "The bar-code scanner has just read data, which went to the POS app. Nothing to do.")
        case .batteryTooLow:
            ("EFT_BATTERY_TOO_LOW", ["Operation cancelled, the battery is too low. Please charge."],
             "The battery is too low to finish the operation that was started. Charge the "
                + "reader.")
        case .accountTypeSelection:
            ("EFT_ACCOUNT_TYPE_SELECTION", ["Waiting for account type selection"],
             "The reader waits for the cardholder to choose the account to use: default, "
                + "credit, cheque/debit or savings.")
        case .updateNotEnoughSpace:
            ("RL_UPDATE_NOT_ENOUGH_SPACE", ["Not enough space for the update"],
             "The update image is larger than the room the reader has for it; the reader keeps "
                + "running its current image. Contact technical support: the reader needs a "
                + "smaller image, or replacing.")
        case .updateVerificationFailed:
            ("RL_UPDATE_VERIFICATION_FAILED", ["Update verification failed"],
             "The update image the reader received does not match its announced size, SHA-256 or "
                + "signature (for the reader's own model and channel); the reader discarded it and "
                + "keeps its current image. " + Self.retryThenSupport)
        case .updateWriteFailed:
            ("RL_UPDATE_WRITE_FAILED", ["Update write failed"],
             "The reader could not store the update image (its flash refused the write); it keeps "
                + "its current image and what it held of the new one. " + Self.retryThenSupport)
        }
    }
}

extension ReaderStatusCode: CustomStringConvertible {
    /// The name and the hex code: `"EFT_PIN_INPUT (0x0019)"`.
    public var description: String {
        let hex = String(rawValue, radix: 16, uppercase: true)
        return "\(eftName) (0x\(String(repeating: "0", count: 4 - hex.count))\(hex))"
    }
}
