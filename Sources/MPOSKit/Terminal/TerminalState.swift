import MPOSCore

/// The terminal's mode in one value: what it is doing, which kind of payment device takes its
/// payments, and whether it runs offline-only. It changes only through the transitions below,
/// each of which says what it allows, so no part of the terminal sets another part's flag.
///
/// The reader link and the gateway session keep their own state (``ReaderConnection``,
/// `GatewayClient`); this is the mode that decides what the terminal may do next.
struct TerminalState: Sendable {
    /// What occupies the terminal: one operation at a time.
    enum Operation: String, Sendable, Hashable {
        case cardPayment, followUp, recovery, update
        case networkedPayment, networkedFollowUp
    }

    /// The device payments go to.
    enum Device: Sendable {
        /// A ReaderLink card reader, when one is connected (or none yet).
        case cardReader
        /// A Terminal API terminal on the LAN.
        case networkedTerminal(NetworkedSession)
    }

    /// The operation running, if any.
    private(set) var operation: Operation?
    private(set) var device: Device = .cardReader
    /// The cached online session the terminal runs on while its login found no gateway.
    private(set) var offlineAuthorization: OfflineAuthorization?

    var isBusy: Bool { operation != nil }
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

    /// Starts `operation`.
    ///
    /// - Throws: ``MPOSError/terminalBusy`` while another runs.
    mutating func begin(_ operation: Operation) throws(MPOSError) {
        guard self.operation == nil else { throw MPOSError.terminalBusy }
        self.operation = operation
    }

    /// Ends `operation`; another operation's end changes nothing.
    mutating func end(_ operation: Operation) {
        if self.operation == operation { self.operation = nil }
    }

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
