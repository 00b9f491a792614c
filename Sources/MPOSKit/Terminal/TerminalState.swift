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
        /// A Terminal API terminal on the LAN.
        case networkedTerminal(NetworkedSession)
    }

    private(set) var device: Device = .cardReader
    /// The cached online session the terminal runs on while its login found no gateway.
    private(set) var offlineAuthorization: OfflineAuthorization?

    var isOfflineOnly: Bool { offlineAuthorization != nil }

    /// The device payments, refunds, voids and cancels go to.
    var paymentDevice: any PaymentDevice {
        if case .networkedTerminal = device { NetworkedTerminalDevice() } else { CardReaderDevice() }
    }

    /// The networked terminal payments go to, if that is the device.
    var networked: NetworkedSession? {
        if case .networkedTerminal(let session) = device { session } else { nil }
    }

    // MARK: - Transitions

    /// Payments go to the networked terminal of `session` from now on.
    mutating func useNetworkedTerminal(_ session: NetworkedSession) { device = .networkedTerminal(session) }

    /// Payments go to a card reader again (the networked terminal, if any, is let go).
    mutating func useCardReader() { device = .cardReader }

    /// Notes the networked payment in flight (nil once it is answered), for ``PaymentTerminal/cancel()``.
    mutating func networkedPaymentRunning(_ attempt: NetworkedAttempt?) {
        guard case .networkedTerminal(var session) = device else { return }
        session.running = attempt
        device = .networkedTerminal(session)
    }

    /// The login found no gateway and came up on a cached session.
    mutating func cameUpOfflineOnly(_ authorization: OfflineAuthorization) {
        offlineAuthorization = authorization
    }

    /// A login reached the gateway.
    mutating func wentOnline() { offlineAuthorization = nil }
}
