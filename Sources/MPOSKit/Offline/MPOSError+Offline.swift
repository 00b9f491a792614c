import MPOSCore

// The offline store's codes, in MPOSKit's block (x100...x199).
extension MPOSError.Code {
    /// 2102: the payment cannot be taken offline (magstripe, not a sale, or an offline limit
    /// reached): it needs the gateway.
    public static let onlineRequired = 2102
    /// 5103: a stored offline record failed its check and is never forwarded (the seed's
    /// `OFFLINE_DATA_TAMPERING`).
    public static let offlineDataTampering = 5103
    /// 5104: the offline store or its key could not be read or written.
    public static let offlineStoreFailed = 5104
}

extension MPOSError {
    /// The payment cannot be taken offline; the gateway must be reached.
    public static let onlineRequired = MPOSError(
        code: Code.onlineRequired,
        message: "This payment cannot be taken offline; the gateway must be reached.",
        customerMessage: "This payment needs a connection to the payment service.")
    /// Stored offline data failed its check: it may have been lost (OFFLINE_DATA_TAMPERING).
    public static let offlineDataTampering = MPOSError(
        code: Code.offlineDataTampering,
        message: "OFFLINE_DATA_TAMPERING: stored offline data failed its check.",
        customerMessage: "An error occurred, offline data may have been lost.")
    /// The offline store could not be read or written.
    public static let offlineStoreFailed = MPOSError(
        code: Code.offlineStoreFailed, message: "The offline store could not be read or written.")
}
