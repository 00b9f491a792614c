/// The reader's bar-code scanner: off, or on in single-scan mode (off again after one code) or
/// multi-scan mode (on until disabled or timed out), with an optional inactivity timeout.
///
/// Pure: time is a `Duration` since any fixed origin the device layer chooses (its clock's
/// start), so tests drive it without waiting. Codes are fed programmatically.
public struct BarcodeScanner: Sendable, Hashable {
    /// Scan mode.
    public enum Mode: Sendable, Hashable {
        /// Off after the first code.
        case single
        /// On until disabled or timed out.
        case multi
    }

    /// What the scanner reports.
    public enum Event: Sendable, Hashable {
        /// A code was read.
        case scanned(String)
        /// No code was read for the timeout; the scanner switched off.
        case timedOut
    }

    /// Whether the scanner is on.
    public private(set) var isEnabled = false
    /// The current mode (meaningful while enabled).
    public private(set) var mode: Mode = .single
    /// Inactivity timeout, or `nil` for none.
    public private(set) var timeout: Duration?
    /// Whether the scanner reads only while its button is held (the Heft seed's `buttonMode`,
    /// on by default there); otherwise it reads whatever is put in front of it.
    public private(set) var buttonMode = false
    /// Whether the operator holds the scan button.
    public var buttonHeld = false
    private var lastActivity: Duration = .zero

    /// An idle scanner.
    public init() {}

    /// Switches the scanner on at time `now`.
    public mutating func enable(mode: Mode, timeout: Duration? = nil, buttonMode: Bool = false, now: Duration) {
        isEnabled = true
        self.mode = mode
        self.timeout = timeout
        self.buttonMode = buttonMode
        lastActivity = now
    }

    /// Switches the scanner off.
    public mutating func disable() { isEnabled = false }

    /// A code in front of the scanner at time `now`: reported when enabled (and not yet timed
    /// out) and, in button mode, while the button is held; ignored otherwise. Single mode
    /// switches off after it.
    public mutating func feed(_ code: String, now: Duration) -> [Event] {
        if let event = tick(now: now) { return [event] }
        guard isEnabled, !buttonMode || buttonHeld else { return [] }
        lastActivity = now
        if mode == .single { isEnabled = false }
        return [.scanned(code)]
    }

    /// Advances time: reports ``Event/timedOut`` (once) and switches off when the timeout has
    /// passed since the last activity.
    public mutating func tick(now: Duration) -> Event? {
        guard isEnabled, let timeout, now - lastActivity >= timeout else { return nil }
        isEnabled = false
        return .timedOut
    }
}
