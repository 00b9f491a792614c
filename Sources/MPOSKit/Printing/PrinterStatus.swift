import MPOSCore

/// What a printer reports in its answers to `DLE EOT n`, one byte per request, with the bit
/// meanings of the Epson ESC/POS reference.
///
/// ```swift
/// var status = PrinterStatus()
/// try status.update(with: 0x32, for: .offlineCause)   // cover closed, paper end stopped printing
/// status.paperOut     // true
/// status.summary      // "paper out"
/// ```
public struct PrinterStatus: Sendable, Hashable, CustomStringConvertible {
    /// The four real-time status requests (`DLE EOT n`).
    public enum Request: UInt8, Sendable, Hashable, CaseIterable {
        /// n = 1: online or offline, and the drawer sensor.
        case printer = 1
        /// n = 2: why the printer is offline (cover, paper end, error).
        case offlineCause = 2
        /// n = 3: which error (auto-cutter, unrecoverable, auto-recoverable).
        case errorCause = 3
        /// n = 4: the roll paper sensors (near end, end).
        case paperSensor = 4
    }

    /// The printer is offline (n = 1, bit 3).
    public var offline = false
    /// The drawer kick-out connector's pin 3 reads high (n = 1, bit 2). The reference gives
    /// only the level; which level means open depends on the drawer's switch.
    public var drawerSensorHigh = false
    /// Whether a high pin 3 means the drawer is open. The reference defines only the pin's
    /// level; which level is open depends on the drawer's switch, so set it for the drawer.
    public var drawerOpensHigh = true
    /// The cover is open (n = 2, bit 2).
    public var coverOpen = false
    /// Printing stopped because the paper ran out (n = 2, bit 5).
    public var paperEndStop = false
    /// The roll paper end sensor finds no paper (n = 4, bits 5 and 6).
    public var paperEndSensor = false
    /// The roll is nearly used up (n = 4, bits 2 and 3).
    public var paperNearEnd = false
    /// An error occurred (n = 2, bit 6).
    public var errorOccurred = false
    /// The auto-cutter failed (n = 3, bit 3).
    public var autocutterError = false
    /// An unrecoverable error (n = 3, bit 5).
    public var unrecoverableError = false
    /// An automatically recoverable error, such as a hot head (n = 3, bit 6).
    public var autoRecoverableError = false

    /// A status with nothing reported yet.
    public init() {}

    /// The paper ran out: ``paperEndStop`` or ``paperEndSensor``.
    public var paperOut: Bool { paperEndStop || paperEndSensor }

    /// Whether the drawer is open, by ``drawerSensorHigh`` and ``drawerOpensHigh``.
    public var drawerOpen: Bool { drawerSensorHigh == drawerOpensHigh }

    /// Whether the printer can print: online, cover closed, paper present, no error.
    public var isReady: Bool {
        !offline && !coverOpen && !paperOut && !errorOccurred && !autocutterError && !unrecoverableError
            && !autoRecoverableError
    }

    /// Reads one answer byte into the status.
    ///
    /// - Throws: ``MPOSError/invalidArgument`` when the byte lacks the fixed bits every
    ///   answer carries (bit 1 and bit 4 set, bits 0 and 7 clear), so a stray byte from the
    ///   printer is not taken for a status.
    public mutating func update(with answer: UInt8, for request: Request) throws(MPOSError) {
        guard answer & 0x93 == 0x12 else {
            throw MPOSError(
                code: MPOSError.Code.invalidArgument,
                message: "The printer's answer to DLE EOT \(request.rawValue) is not a status byte.")
        }
        func bit(_ n: UInt8) -> Bool { answer & (1 << n) != 0 }
        switch request {
        case .printer:
            drawerSensorHigh = bit(2)
            offline = bit(3)
        case .offlineCause:
            coverOpen = bit(2)
            paperEndStop = bit(5)
            errorOccurred = bit(6)
        case .errorCause:
            autocutterError = bit(3)
            unrecoverableError = bit(5)
            autoRecoverableError = bit(6)
        case .paperSensor:
            paperNearEnd = bit(2) || bit(3)
            paperEndSensor = bit(5) || bit(6)
        }
    }

    /// The conditions that stop printing or need attention, such as
    /// `"offline, cover open, paper out"`; `"ready"` when there is none.
    public var summary: String {
        let conditions: [(Bool, String)] = [
            (offline, "offline"), (coverOpen, "cover open"), (paperOut, "paper out"),
            (paperNearEnd, "paper near end"), (autocutterError, "cutter error"),
            (unrecoverableError, "unrecoverable error"), (autoRecoverableError, "recoverable error"),
            (errorOccurred && !autocutterError && !unrecoverableError && !autoRecoverableError, "error"),
        ]
        let named = conditions.filter(\.0).map(\.1)
        return named.isEmpty ? "ready" : named.joined(separator: ", ")
    }

    /// ``summary``.
    public var description: String { summary }
}
