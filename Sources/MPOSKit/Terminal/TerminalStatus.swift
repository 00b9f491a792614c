import ReaderLink

/// What a terminal is connected to and doing, in one value (``PaymentTerminal/status``).
///
/// ```swift
/// let status = await terminal.status
/// if case .cardReader(let info) = status.device { print(info?.serialNumber ?? "reader") }
/// if status.isOfflineOnly { print("sales wait to be forwarded") }
/// ```
public struct TerminalStatus: Sendable, Hashable {
    /// The device payments go to.
    public enum Device: Sendable, Hashable {
        /// None is connected.
        case none
        /// A ReaderLink card reader, with its description as it last gave it.
        case cardReader(DeviceInfo?)
        /// A networked Terminal API terminal, by its POIID.
        case networkedTerminal(poiID: String)
    }

    /// Whether the terminal holds a gateway session (after ``PaymentTerminal/login(offlineFallback:)``
    /// or ``PaymentTerminal/warmUp()``, until ``PaymentTerminal/reset()``). A session that lapsed at
    /// the gateway is renewed by the next request that finds it so.
    public var isLoggedIn: Bool
    /// Whether the terminal runs on a cached session because its login found no gateway:
    /// sales with `offlineAllowed` go to the card's offline decision, everything else throws
    /// ``MPOSError/onlineRequired``.
    public var isOfflineOnly: Bool
    /// The device payments go to.
    public var device: Device
    /// Whether an operation (a payment, a follow-up, recovery, an update) is running.
    public var isBusy: Bool
}
