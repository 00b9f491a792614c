import MPOSCore

// Printer and cash drawer errors, in MPOSKit's block of the device category (3251...3259).
extension MPOSError.Code {
    /// 3251: the printer could not be reached, or its link closed.
    public static let printerUnreachable = 3251
    /// 3252: the printer did not answer a status request in time.
    public static let printerNotResponding = 3252
    /// 3253: the printer reports itself offline for no reason it names.
    public static let printerOffline = 3253
    /// 3254: the printer's cover is open.
    public static let printerCoverOpen = 3254
    /// 3255: the printer is out of paper.
    public static let printerPaperOut = 3255
    /// 3256: the printer reports an error (cutter, unrecoverable, or one it recovers from).
    public static let printerFault = 3256
}

extension MPOSError {
    /// The printer could not be reached.
    public static let printerUnreachable = MPOSError(
        code: Code.printerUnreachable, message: "The printer could not be reached.",
        customerMessage: "Check that the printer is on and connected.")
    /// The printer did not answer a status request.
    public static let printerNotResponding = MPOSError(
        code: Code.printerNotResponding, message: "The printer did not answer a status request in time.",
        customerMessage: "The printer does not respond.")
    /// The printer is offline.
    public static let printerOffline = MPOSError(
        code: Code.printerOffline, message: "The printer is offline.",
        customerMessage: "The printer is offline.")
    /// The cover is open.
    public static let printerCoverOpen = MPOSError(
        code: Code.printerCoverOpen, message: "The printer's cover is open.",
        customerMessage: "Close the printer's cover.")
    /// Out of paper.
    public static let printerPaperOut = MPOSError(
        code: Code.printerPaperOut, message: "The printer is out of paper.",
        customerMessage: "Load paper into the printer.")
    /// A printer error.
    public static let printerFault = MPOSError(
        code: Code.printerFault, message: "The printer reports an error.",
        customerMessage: "The printer reports an error.")
}

extension PrinterStatus {
    /// The error that stops printing in this status, or nil when the printer is ready. A cover
    /// that is open comes first (it also stops the paper sensor from reading), then paper out,
    /// then an error, then offline. The message ends with the ``summary``.
    public var problem: MPOSError? {
        let error: MPOSError
        if coverOpen {
            error = .printerCoverOpen
        } else if paperOut {
            error = .printerPaperOut
        } else if errorOccurred || autocutterError || unrecoverableError || autoRecoverableError {
            error = .printerFault
        } else if offline {
            error = .printerOffline
        } else {
            return nil
        }
        return error.withMessage("The printer cannot print: \(summary).")
    }
}
