import MPOSCore

/// What a reader says about itself.
public struct DeviceInfo: Sendable, Hashable {
    /// The reader's serial number.
    public var serialNumber: String
    /// The manufacturer's name.
    public var manufacturer: String
    /// The model name.
    public var model: String
    /// The payment application's name.
    public var applicationName: String
    /// The payment application's version.
    public var applicationVersion: String
    /// The version of the EMV parameters (terminal and application configuration) loaded.
    public var emvParameterVersion: String
    /// The version of the CA public keys loaded.
    public var publicKeyVersion: String
    /// The battery state at the time of the report.
    public var battery: BatteryStatus
    /// The version of the general (non-EMV) terminal parameters loaded (Handpoint's
    /// `kGeneralParamInfoKey`).
    public var generalParameterVersion: String

    /// Creates device information.
    public init(
        serialNumber: String, manufacturer: String, model: String, applicationName: String,
        applicationVersion: String, emvParameterVersion: String, publicKeyVersion: String,
        battery: BatteryStatus, generalParameterVersion: String = ""
    ) {
        self.serialNumber = serialNumber
        self.manufacturer = manufacturer
        self.model = model
        self.applicationName = applicationName
        self.applicationVersion = applicationVersion
        self.emvParameterVersion = emvParameterVersion
        self.publicKeyVersion = publicKeyVersion
        self.battery = battery
        self.generalParameterVersion = generalParameterVersion
    }
}

/// The reader's power state.
public struct BatteryStatus: Sendable, Hashable {
    /// Charge, 0 to 100.
    public var percentage: UInt8
    /// Whether the battery is charging.
    public var isCharging: Bool
    /// Whether external power is connected.
    public var hasExternalPower: Bool
    /// The battery's voltage in millivolts (Handpoint's `BatterymV`); 0 when the reader does
    /// not measure it.
    public var millivolts: UInt16

    /// Creates a battery status.
    public init(percentage: UInt8, isCharging: Bool, hasExternalPower: Bool, millivolts: UInt16 = 0) {
        self.percentage = percentage
        self.isCharging = isCharging
        self.hasExternalPower = hasExternalPower
        self.millivolts = millivolts
    }
}

/// How much the reader logs.
public enum ReaderLogLevel: UInt8, Sendable, Hashable, CaseIterable {
    /// Nothing.
    case none = 0
    /// Main events.
    case info = 1
    /// Everything but debug detail.
    case full = 2
    /// Everything.
    case debug = 3
}

/// Scanner settings.
public struct ScannerConfiguration: Sendable, Hashable {
    /// Keep scanning after a code is read.
    public var multiScan: Bool
    /// The operator presses the scan button to scan.
    public var buttonMode: Bool
    /// Seconds of inactivity before the scanner stops; 0 lets the reader decide.
    public var timeoutSeconds: UInt16

    /// Creates scanner settings.
    public init(multiScan: Bool = false, buttonMode: Bool = true, timeoutSeconds: UInt16 = 0) {
        self.multiScan = multiScan
        self.buttonMode = buttonMode
        self.timeoutSeconds = timeoutSeconds
    }
}

/// A code read by the scanner.
public struct ScanEvent: Sendable, Hashable {
    /// The decoded code.
    public var barcode: String
    /// The symbology, e.g. "EAN-13", "QR".
    public var symbology: String

    /// Creates a scan event.
    public init(barcode: String, symbology: String) {
        self.barcode = barcode
        self.symbology = symbology
    }
}
