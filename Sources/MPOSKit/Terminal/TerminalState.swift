import MPOSCore

/// The terminal's mode: which kind of payment device takes its payments, and whether it runs
/// offline-only. It belongs to the facade (``PaymentTerminal``) and changes only through the
/// transitions below.
///
/// Each part owns its own state (the reader link ``CardReaderLink``, the updates
/// ``TerminalUpdates``, the gateway session `GatewayClient`, …) and no part writes another's.
/// What occupies the terminal is not here either: every part takes the one ``OperationGate``.
struct TerminalState: Sendable {
    /// The device payments go to.
    enum Device: Sendable {
        /// A ReaderLink card reader, when one is connected (or none yet).
        case cardReader
        /// A Terminal API terminal on the LAN (the device owns its link and the payment it runs).
        case networkedTerminal(NetworkedTerminalDevice)
    }

    private(set) var device: Device = .cardReader
    /// The cached online session the terminal runs on while its login found no gateway.
    private(set) var offlineAuthorization: OfflineAuthorization?

    var isOfflineOnly: Bool { offlineAuthorization != nil }

    /// The device payments, refunds, voids and cancels go to.
    var paymentDevice: any PaymentDevice {
        if case .networkedTerminal(let networked) = device { networked } else { CardReaderDevice() }
    }

    /// The networked terminal payments go to, if that is the device.
    var networked: NetworkedTerminalDevice? {
        if case .networkedTerminal(let networked) = device { networked } else { nil }
    }

    // MARK: - Transitions

    /// Payments go to `networked` from now on.
    mutating func useNetworkedTerminal(_ networked: NetworkedTerminalDevice) { device = .networkedTerminal(networked) }

    /// Payments go to a card reader again (the networked terminal, if any, is let go).
    mutating func useCardReader() { device = .cardReader }

    /// The login found no gateway and came up on a cached session.
    mutating func cameUpOfflineOnly(_ authorization: OfflineAuthorization) {
        offlineAuthorization = authorization
    }

    /// A login reached the gateway.
    mutating func wentOnline() { offlineAuthorization = nil }
}
