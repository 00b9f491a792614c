import Foundation

/// What the device checks read from the device at one moment (see ``DeviceProbe``).
///
/// A value that a platform cannot tell is `nil` or the harmless answer, and its check does
/// not run there: Linux has no screen recording, passcode or jailbreak to look at.
public struct DeviceState: Sendable, Hashable {
    /// How the screen is being captured, if it is.
    public enum ScreenCapture: String, Sendable, Hashable, Codable {
        /// Not captured.
        case none
        /// Recorded (screen recording, or a capture by a connected computer).
        case recording
        /// Shown on another display (AirPlay or a cable).
        case mirrored
    }

    /// The device's date and time, the clock a user can set.
    public var date: Date
    /// Time since the device booted, sleep included, on a clock nobody sets; nil when unknown.
    public var sinceBoot: Duration?
    /// This boot of the device, which changes at each restart; nil when unknown.
    public var bootID: String?
    /// Whether a debugger is attached to the process.
    public var debuggerAttached: Bool
    /// How the screen is captured (UIKit only; ``ScreenCapture/none`` elsewhere).
    public var screenCapture: ScreenCapture
    /// Whether the device has a passcode; nil where the platform has nothing to ask (Linux).
    public var passcodeSet: Bool?
    /// The first sign of a jailbreak found, such as a file only a jailbreak installs; nil
    /// when none was found or the platform is not checked.
    public var jailbreakSign: String?

    /// Creates a state; what is not given is the harmless answer.
    public init(
        date: Date, sinceBoot: Duration? = nil, bootID: String? = nil, debuggerAttached: Bool = false,
        screenCapture: ScreenCapture = .none, passcodeSet: Bool? = nil, jailbreakSign: String? = nil
    ) {
        self.date = date
        self.sinceBoot = sinceBoot
        self.bootID = bootID
        self.debuggerAttached = debuggerAttached
        self.screenCapture = screenCapture
        self.passcodeSet = passcodeSet
        self.jailbreakSign = jailbreakSign
    }
}

/// Reads the device's state for the device checks: the seam between the checks and the
/// operating system. ``SystemDeviceProbe`` is the real one; a test gives its own to drive
/// each check.
public protocol DeviceProbe: Sendable {
    /// The device's state now.
    func state() async -> DeviceState
}
