import MPOSCore

// The device checks' codes (the seed's attestation table), in MPOSKit's block next to the
// offline store's: the device's own state refuses the payment, and only the merchant can
// clear it (docs/device-checks.md says how, per check).
extension MPOSError.Code {
    /// 5105: a debugger is attached to the app (the seed's `DEBUGGER_ENABLED`).
    public static let debuggerEnabled = 5105
    /// 5106: the device's clock is off the gateway's by more than the tolerance
    /// (`LOCAL_TIME_TAMPERING`).
    public static let localTimeTampering = 5106
    /// 5107: the device restarted or its clock was moved since the last online session; no
    /// sale is taken offline until a login reaches the gateway (`SYSTEM_CHANGE`).
    public static let systemChange = 5107
    /// 5108: the screen is being recorded (`SCREEN_RECORDING`).
    public static let screenRecording = 5108
    /// 5109: the screen is shown on another display (`SCREEN_CAPTURED`).
    public static let screenCaptured = 5109
    /// 5110: the device has no passcode (`PASSCODE_NOT_ENABLED`).
    public static let passcodeNotEnabled = 5110
    /// 5111: the device's integrity cannot be trusted, such as a jailbreak
    /// (`NON_SELF_RESOLVABLE`).
    public static let nonSelfResolvable = 5111
    /// 5112: the connected reader's firmware is past its update deadline: install it before
    /// taking payments (`INVALID_NYC1_FIRMWARE_VERSION`).
    public static let invalidReaderFirmwareVersion = 5112
}

extension MPOSError {
    /// The reader's firmware is past its update deadline (INVALID_NYC1_FIRMWARE_VERSION).
    public static let invalidReaderFirmwareVersion = MPOSError(
        code: Code.invalidReaderFirmwareVersion,
        message:
            "INVALID_NYC1_FIRMWARE_VERSION: the reader's firmware is past its update deadline; install it "
            + "(updates.downloadAndApply()) and try again.",
        customerMessage: "Card reader firmware version is invalid.")
    /// A debugger is attached to the app (DEBUGGER_ENABLED).
    public static let debuggerEnabled = MPOSError(
        code: Code.debuggerEnabled,
        message: "DEBUGGER_ENABLED: a debugger is attached to the app; detach it and try again.",
        customerMessage: "Transaction canceled.")
    /// The device's clock is off the gateway's (LOCAL_TIME_TAMPERING).
    public static let localTimeTampering = MPOSError(
        code: Code.localTimeTampering,
        message:
            "LOCAL_TIME_TAMPERING: the device's clock is off the gateway's; set date and time automatically.",
        customerMessage: "Transaction canceled. Unable to check the security requirements.")
    /// The device restarted or its clock moved since the last online session (SYSTEM_CHANGE).
    public static let systemChange = MPOSError(
        code: Code.systemChange,
        message:
            "SYSTEM_CHANGE: the device changed since the last online session; go online to take payments offline.",
        customerMessage: "Transaction canceled. Cannot transact due to system change.")
    /// The screen is being recorded (SCREEN_RECORDING).
    public static let screenRecording = MPOSError(
        code: Code.screenRecording,
        message: "SCREEN_RECORDING: the screen is being recorded; stop the recording and try again.",
        customerMessage: "Transaction canceled.")
    /// The screen is shown on another display (SCREEN_CAPTURED).
    public static let screenCaptured = MPOSError(
        code: Code.screenCaptured,
        message: "SCREEN_CAPTURED: the screen is shown on another display; stop mirroring and try again.",
        customerMessage: "Transaction canceled.")
    /// The device has no passcode (PASSCODE_NOT_ENABLED).
    public static let passcodeNotEnabled = MPOSError(
        code: Code.passcodeNotEnabled,
        message: "PASSCODE_NOT_ENABLED: the device has no passcode; set one in Settings and try again.",
        customerMessage:
            "Transaction canceled. Device passcode was removed, offline transaction data may have been lost.")
    /// The device's integrity cannot be trusted (NON_SELF_RESOLVABLE).
    public static let nonSelfResolvable = MPOSError(
        code: Code.nonSelfResolvable,
        message: "NON_SELF_RESOLVABLE: the device's integrity cannot be trusted; contact support.",
        customerMessage: "Transaction canceled. Unable to check the security requirements.")
}
