import MPOSCore

// The terminal catalogue's errors (paymentmethods.xml).
extension MPOSError.Code {
    /// 1132: a terminal catalogue (`paymentmethods.xml`) is malformed.
    public static let invalidCatalogue = 1132
    /// 3150: the reader's model is not in the app's terminal catalogue.
    public static let readerNotSupported = 3150
    /// 2150: the connected reader's model must not take this card (the catalogue's blacklist).
    public static let cardNotAccepted = 2150
}

extension MPOSError {
    /// The terminal catalogue was refused.
    public static let invalidCatalogue = MPOSError(
        code: Code.invalidCatalogue, message: "The terminal catalogue is malformed.")
    /// The reader's model is not one the app supports.
    public static let readerNotSupported = MPOSError(
        code: Code.readerNotSupported, message: "The reader's model is not in the app's terminal catalogue.",
        customerMessage: "This card reader cannot be used with this app.")
    /// The card may not be taken on this reader.
    public static let cardNotAccepted = MPOSError(
        code: Code.cardNotAccepted, message: "This reader's model must not take this card.",
        customerMessage: "This card is not accepted here. Please use another card.")
}
