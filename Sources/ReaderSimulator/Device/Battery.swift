import MPOSCore

/// The simulated reader's battery: a level that drains with each transaction, a low-battery
/// warning and a level below which the reader refuses to transact unless it is charging.
///
/// Pure: the device layer calls ``recordTransaction()`` and forwards the returned events.
public struct Battery: Sendable, Hashable {
    /// Something the app should hear about.
    public enum Event: Sendable, Hashable {
        /// The level fell to or below ``Battery/lowThreshold``.
        case low(percentage: Int)
        /// The level fell to or below ``Battery/refusalThreshold``: transactions are refused
        /// until the reader charges.
        case critical(percentage: Int)
        /// Charging started or stopped.
        case charging(Bool)
    }

    /// Charge level, 0–100.
    public private(set) var percentage: Int
    /// Whether the reader is on its charger.
    public private(set) var isCharging: Bool
    /// Percentage points one transaction uses.
    public let drainPerTransaction: Int
    /// At or below this level the reader warns once (until it climbs above again).
    public let lowThreshold: Int
    /// At or below this level, not charging, the reader refuses transactions.
    public let refusalThreshold: Int
    private var warnedLow = false
    private var warnedCritical = false

    /// A battery at `percentage` (clamped to 0–100).
    public init(
        percentage: Int = 100, isCharging: Bool = false, drainPerTransaction: Int = 1, lowThreshold: Int = 15,
        refusalThreshold: Int = 5
    ) {
        self.percentage = min(100, max(0, percentage))
        self.isCharging = isCharging
        self.drainPerTransaction = drainPerTransaction
        self.lowThreshold = lowThreshold
        self.refusalThreshold = refusalThreshold
        warnedLow = self.percentage <= lowThreshold
        warnedCritical = self.percentage <= refusalThreshold
    }

    /// `nil` when the reader may transact, else ``MPOSCore/ReaderStatusCode/batteryTooLow``.
    public var refusal: ReaderStatusCode? {
        !isCharging && percentage <= refusalThreshold ? .batteryTooLow : nil
    }

    /// The cell's voltage in millivolts: a single Li-ion cell taken as linear from 3300 mV
    /// empty to 4200 mV full, close enough for a simulated gauge.
    public var millivolts: Int { 3300 + 9 * percentage }

    /// Whether the level is at or below ``lowThreshold``.
    public var isLow: Bool { percentage <= lowThreshold }

    /// One transaction's drain (none while charging); returns the warnings it crosses.
    public mutating func recordTransaction() -> [Event] {
        guard !isCharging else { return [] }
        return set(percentage - drainPerTransaction)
    }

    /// Sets the level directly (a test, or a reading from hardware); returns the warnings it
    /// crosses.
    public mutating func set(_ level: Int) -> [Event] {
        percentage = min(100, max(0, level))
        var events: [Event] = []
        if percentage > lowThreshold { warnedLow = false }
        if percentage > refusalThreshold { warnedCritical = false }
        if percentage <= lowThreshold, !warnedLow {
            warnedLow = true
            events.append(.low(percentage: percentage))
        }
        if percentage <= refusalThreshold, !warnedCritical {
            warnedCritical = true
            events.append(.critical(percentage: percentage))
        }
        return events
    }

    /// Puts the reader on or off its charger.
    public mutating func setCharging(_ charging: Bool) -> [Event] {
        guard charging != isCharging else { return [] }
        isCharging = charging
        return [.charging(charging)]
    }

    /// Adds charge (while charging); returns nothing, since rising levels raise no warning.
    public mutating func charge(by points: Int) {
        _ = set(percentage + points)
    }
}
