import ReaderLink

/// Decides when a battery report is news: the first report under the threshold while on
/// battery power warns; later low reports stay quiet until the level climbs back to the
/// threshold or the reader is put on power, which arms the warning again.
struct BatteryWatch: Sendable, Hashable {
    /// Reports under this percentage are low (10 by default).
    var threshold: Int
    private var warned = false

    init(threshold: Int = CardReaderLink.defaultBatteryLowThreshold) {
        self.threshold = threshold
    }

    /// Takes in a report; true when it should raise a low-battery warning.
    mutating func report(_ status: BatteryStatus) -> Bool {
        let low = Int(status.percentage) < threshold && !status.isCharging && !status.hasExternalPower
        defer { warned = low }
        return low && !warned
    }
}
