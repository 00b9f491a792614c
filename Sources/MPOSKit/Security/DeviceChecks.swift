import Foundation
import MPOSCore

/// The device checks of the seed's attestation table, run before every card payment
/// (docs/device-checks.md): a debugger, the screen, the passcode, a jailbreak and the device's
/// clock against the gateway's refuse any payment; a restart or a moved clock since the last
/// online session refuses sales offline. Each refusal is a typed ``MPOSError`` whose message
/// starts with the seed's name.
///
/// ```swift
/// #if DEBUG  // the app's flag: Xcode runs debug builds under its debugger
///     await terminal.setDeviceChecks(DeviceChecks(allowsDebugger: true))
/// #endif
/// try await terminal.login()
/// ```
public struct DeviceChecks: Sendable {
    /// Where the device's state is read: ``SystemDeviceProbe`` unless a test gives its own.
    public var probe: any DeviceProbe
    /// Whether payments go on with a debugger attached. Off by default in every build: the
    /// SDK cannot know how the app was built, and a debugger reads what the app holds.
    public var allowsDebugger: Bool
    /// How far the device's clock may be off the gateway's before a payment is refused.
    public var clockTolerance: Duration

    /// The device's date may move this far against the time since boot between the last
    /// online session and an offline sale: NTP corrections are far smaller, a clock set by
    /// hand is not.
    static let movedClockTolerance: Duration = .seconds(120)

    /// Five minutes, the usual bound of signed-token protocols (Kerberos): a clock set
    /// automatically is within a second, and the offline window of hours needs it right to
    /// the minute.
    public static let standardClockTolerance: Duration = .seconds(300)

    /// Every check on, the system's probe, a tolerance of ``standardClockTolerance``.
    public static var standard: DeviceChecks { DeviceChecks() }

    /// Creates the checks.
    public init(
        probe: any DeviceProbe = SystemDeviceProbe(), allowsDebugger: Bool = false,
        clockTolerance: Duration = DeviceChecks.standardClockTolerance
    ) {
        self.probe = probe
        self.allowsDebugger = allowsDebugger
        self.clockTolerance = clockTolerance
    }

    /// Why no card payment may run on a device in `state`, or nil. The clock is compared with
    /// the gateway's as of the last online session (`checkpoint`), when the gateway gave its time.
    func refusal(_ state: DeviceState, since checkpoint: DeviceCheckpoint?) -> MPOSError? {
        if state.debuggerAttached, !allowsDebugger { return .debuggerEnabled }
        if let sign = state.jailbreakSign {
            return .nonSelfResolvable.withMessage(
                "NON_SELF_RESOLVABLE: the device looks jailbroken (\(sign)); payments need a device as shipped."
            )
        }
        switch state.screenCapture {
        case .recording: return .screenRecording
        case .mirrored: return .screenCaptured
        case .none: break
        }
        if state.passcodeSet == false { return .passcodeNotEnabled }
        if let checkpoint, let skew = checkpoint.clockSkew(state), skew.magnitude > clockTolerance {
            let seconds = skew.components.seconds
            return .localTimeTampering.withMessage(
                "LOCAL_TIME_TAMPERING: the device's clock is \(Swift.abs(seconds)) s "
                    + (seconds > 0 ? "ahead of" : "behind") + " the gateway's (tolerance "
                    + "\(clockTolerance.components.seconds) s); set date and time automatically and try again."
            )
        }
        return nil
    }

    /// Why no sale may be taken offline on a device in `state`, or nil: it restarted, or its
    /// date moved against the time since boot, since the last online session (`checkpoint`;
    /// with none the offline policy refuses with NO_TOKEN).
    func offlineRefusal(_ state: DeviceState, since checkpoint: DeviceCheckpoint?) -> MPOSError? {
        guard let checkpoint else { return nil }
        if let then = checkpoint.bootID, let now = state.bootID, then != now {
            return .systemChange.withMessage(
                "SYSTEM_CHANGE: the device restarted since the last online session; go online to take payments offline."
            )
        }
        if let moved = checkpoint.clockMoved(state), moved.magnitude > Self.movedClockTolerance {
            return .systemChange.withMessage(
                "SYSTEM_CHANGE: the device's date and time moved \(moved.components.seconds) s since the last "
                    + "online session; set them back, or go online, to take payments offline.")
        }
        return nil
    }
}

/// What the device and the gateway said at the last online session: the reference of the
/// clock and restart checks until the next one.
struct DeviceCheckpoint: Sendable, Hashable, Codable {
    /// The device's date when the gateway's answer came.
    var deviceDate: Date
    /// The gateway's date in its answer; nil when it gave none (a client-token session).
    var gatewayDate: Date?
    /// The device's time since boot then.
    var sinceBoot: Duration?
    /// The device's boot then.
    var bootID: String?

    /// The time passed since, on the clock nobody sets; nil across a restart or when unknown.
    func elapsed(_ state: DeviceState) -> Duration? {
        guard let now = state.sinceBoot, let then = sinceBoot, state.bootID == bootID else { return nil }
        return now - then
    }

    /// How far the device's date moved against the time that passed since (positive: forward).
    func clockMoved(_ state: DeviceState) -> Duration? {
        elapsed(state).map { Duration.between(deviceDate, state.date) - $0 }
    }

    /// How far the device's date is from the gateway's now (positive: ahead): the gateway's
    /// date then plus the time passed since. Without that time (after a restart) the
    /// device's clock is taken to have kept its offset.
    func clockSkew(_ state: DeviceState) -> Duration? {
        guard let gatewayDate else { return nil }
        guard let elapsed = elapsed(state) else { return Duration.between(gatewayDate, deviceDate) }
        return Duration.between(gatewayDate, state.date) - elapsed
    }
}

extension Duration {
    /// From `start` to `end`, to the millisecond.
    static func between(_ start: Date, _ end: Date) -> Duration {
        .milliseconds(Int64((end.timeIntervalSince(start) * 1000).rounded()))
    }

    /// The duration without its sign.
    var magnitude: Duration { self < .zero ? .zero - self : self }
}
