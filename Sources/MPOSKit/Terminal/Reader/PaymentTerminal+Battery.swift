import MPOSCore
import ReaderLink

/// The reader's battery: on demand, and a warning when it runs low.
extension PaymentTerminal {
    /// Asks the connected reader for its battery. A level under the low-battery threshold
    /// also raises ``TerminalEvent/batteryLow(_:)`` (once, until it recovers).
    ///
    /// Ask between payments: a reader answers during one too, but the app has nothing to do
    /// with the answer then.
    ///
    /// ```swift
    /// let battery = try await terminal.reader.battery()
    /// print("\(battery.percentage)%", battery.isCharging ? "charging" : "")
    /// ```
    ///
    /// - Throws: ``MPOSError/readerNotConnected``, ``MPOSError/readerLinkFailed``.
    func batteryLevel() async throws(MPOSError) -> BatteryStatus {
        let status: BatteryStatus = try await ask(.getBattery, "the battery request") { answer in
            if case .battery(let status) = answer { status } else { nil }
        }
        noteBattery(status)
        return status
    }

    /// Sets the percentage under which a battery report raises ``TerminalEvent/batteryLow(_:)``
    /// (``ReaderTools/defaultBatteryLowThreshold`` until set; clamped to 0–100, and 0 turns the warning
    /// off). Reports come from ``ReaderTools/battery()``, ``ReaderTools/info()`` (also asked on connect)
    /// and the reader's own battery messages.
    func setBatteryLowThreshold(_ percentage: Int) {
        readerLink.battery.threshold = min(100, max(0, percentage))
    }


    /// Takes in a battery report from any source.
    func noteBattery(_ status: BatteryStatus) {
        if readerLink.battery.report(status) { emit(.batteryLow(status)) }
    }
}
