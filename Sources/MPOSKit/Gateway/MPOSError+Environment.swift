import MPOSCore

// Environment errors.
extension MPOSError.Code {
    /// 1130: an environment name other than sandbox or production (`SBX` / `PROD`), or a
    /// production environment without an `https` URL.
    public static let invalidEnvironment = 1130
    /// 1131: the gateway is of the other environment than the terminal was made for (a
    /// production terminal at a sandbox, or the reverse).
    public static let environmentMismatch = 1131
}

extension MPOSError {
    /// The environment's name or URL was refused.
    public static let invalidEnvironment = MPOSError(
        code: Code.invalidEnvironment, message: "The environment is not sandbox or production at a valid URL.")
    /// The gateway is of the other environment.
    public static let environmentMismatch = MPOSError(
        code: Code.environmentMismatch,
        message: "The gateway is not of the environment the terminal was made for.",
        customerMessage: "This terminal is not set up for this payment service.")
}
