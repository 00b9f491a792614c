import MPOSCore

// The offline store's codes, in MPOSKit's block (x100...x199).
extension MPOSError.Code {
    /// 2110: the payment cannot be taken offline (not a sale, a partial approval or later
    /// capture, a swiped card, or anything but a sale while offline-only): it needs the
    /// gateway. The limits have codes of their own (2111–2115); all of 2110–2115 mean "this
    /// payment needs the gateway".
    public static let onlineRequired = 2110
    /// 2111: no online session to take payments offline on (the seed's `NO_TOKEN`): no login
    /// reached the gateway yet, or the cached session is another user's or gateway's.
    public static let offlineNoToken = 2111
    /// 2112: the offline window since the last online session has passed, or the clock is
    /// before it (the seed's `TOKEN_EXPIRED_S&F`).
    public static let offlineTokenExpired = 2112
    /// 2113: the amount is over the merchant's largest offline payment.
    public static let offlineAmountLimit = 2113
    /// 2114: as many payments are stored offline as the merchant allows.
    public static let offlineStoredPaymentsLimit = 2114
    /// 2115: the payments stored offline in this currency would pass the merchant's total.
    public static let offlineTotalLimit = 2115
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
    /// No online session to take payments offline on (NO_TOKEN).
    public static let offlineNoToken = MPOSError(
        code: Code.offlineNoToken, message: "NO_TOKEN: no online session to take payments offline on.",
        customerMessage: "This payment needs a connection to the payment service.")
    /// The offline window has passed (TOKEN_EXPIRED_S&F).
    public static let offlineTokenExpired = MPOSError(
        code: Code.offlineTokenExpired, message: "TOKEN_EXPIRED_S&F: the offline window has passed.",
        customerMessage: "This payment needs a connection to the payment service.")
    /// The amount is over the largest offline payment.
    public static let offlineAmountLimit = MPOSError(
        code: Code.offlineAmountLimit, message: "The amount is over the largest offline payment.",
        customerMessage: "This payment needs a connection to the payment service.")
    /// As many payments are stored offline as allowed.
    public static let offlineStoredPaymentsLimit = MPOSError(
        code: Code.offlineStoredPaymentsLimit, message: "As many payments are stored offline as allowed.",
        customerMessage: "This payment needs a connection to the payment service.")
    /// The stored total in the currency would pass its limit.
    public static let offlineTotalLimit = MPOSError(
        code: Code.offlineTotalLimit, message: "The payments stored offline would pass the total allowed.",
        customerMessage: "This payment needs a connection to the payment service.")
    /// Stored offline data failed its check: it may have been lost (OFFLINE_DATA_TAMPERING).
    public static let offlineDataTampering = MPOSError(
        code: Code.offlineDataTampering,
        message: "OFFLINE_DATA_TAMPERING: stored offline data failed its check.",
        customerMessage: "An error occurred, offline data may have been lost.")
    /// The offline store could not be read or written.
    public static let offlineStoreFailed = MPOSError(
        code: Code.offlineStoreFailed, message: "The offline store could not be read or written.")

    /// ``offlineNoToken`` for anything but a sale allowed offline, on a terminal that came up
    /// offline-only.
    static let onlyOfflineSales = offlineNoToken.withMessage(
        "NO_TOKEN: the gateway could not be reached at login; only sales allowed offline are taken "
            + "until a login reaches it.")
}
