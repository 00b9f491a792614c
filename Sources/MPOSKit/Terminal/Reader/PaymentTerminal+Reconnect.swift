import MPOSCore
import ReaderLink

/// How a terminal tries to reach its reader again after the link dropped between
/// transactions: the delay doubles from `initialDelay` up to `maximumDelay`, for at most
/// `maximumAttempts` attempts.
public struct ReconnectPolicy: Sendable, Hashable {
    /// The wait before the first attempt.
    public var initialDelay: Duration
    /// The longest wait between attempts.
    public var maximumDelay: Duration
    /// How many attempts before the terminal gives up (and reports the reader disconnected).
    public var maximumAttempts: Int

    /// 0.5 s, doubling up to 30 s, 8 attempts (about two minutes in all).
    public static let standard = ReconnectPolicy(initialDelay: .milliseconds(500), maximumDelay: .seconds(30), maximumAttempts: 8)

    /// Creates a policy.
    public init(initialDelay: Duration, maximumDelay: Duration, maximumAttempts: Int) {
        self.initialDelay = max(.zero, initialDelay)
        self.maximumDelay = max(self.initialDelay, maximumDelay)
        self.maximumAttempts = max(1, maximumAttempts)
    }

    /// The wait before attempt `attempt` (0-based).
    public func delay(beforeAttempt attempt: Int) -> Duration {
        var delay = initialDelay
        for _ in 0..<min(attempt, 62) {
            delay = delay * 2
            if delay >= maximumDelay { return maximumDelay }
        }
        return delay
    }
}

/// Opens a new byte link to the reader (a TCP connection, a BLE channel) for each attempt.
public typealias ReaderTransportFactory = @Sendable () async throws -> any ReaderTransport

extension PaymentTerminal {
    /// Connects to a reader through `open` (for example
    /// `{ try await TCPTransport.connect(host: host, port: port) }`, whose connect timeout is
    /// 15 s) and pairs with `secret`. When the link drops, the terminal opens a new one
    /// through `open` and pairs again, waiting as `reconnect` says (``ReconnectPolicy/standard``
    /// by default; `nil` turns it off) and never while an operation runs. Each change shows as
    /// a ``TerminalEvent/readerConnection(connected:info:)`` event. ``disconnect()`` or
    /// another `connectReader` stops it.
    ///
    /// - Throws: ``MPOSError/terminalBusy`` during an operation; ``MPOSError/readerLinkFailed``
    ///   when the link cannot be opened or paired (wrong secret, timeout); the code
    ///   `MPOSError.Code.readerInUse` when another terminal holds the reader (reconnection
    ///   attempts that meet it keep trying: the holder may be this terminal's dead link, which
    ///   the reader drops once it has been silent for `ReaderLinkProtocol.idleLinkLimit`).
    func connectReader(
        secret: SharedSecret, reconnect: ReconnectPolicy? = .standard, open: @escaping ReaderTransportFactory
    ) async throws(MPOSError) {
        try await connect(secret: secret, reconnect: reconnect, timeout: nil, open: open)
    }

    /// Called when a link this terminal did not close went away.
    func linkDropped() {
        guard let plan = readerLink.reconnectPlan, readerLink.reconnecting == nil else { return }
        let clock = self.clock
        // Unstructured: reconnecting starts from a dropped link, with no caller to await it; `disconnect()` cancels it.
        readerLink.reconnecting = Task { [weak self] in
            for attempt in 0..<plan.policy.maximumAttempts {
                do { try await clock.sleep(for: plan.policy.delay(beforeAttempt: attempt)) } catch { return }
                guard let self, await self.reconnectStillWanted(plan) else { return }
                if await self.attemptReconnect(plan, attempt: attempt + 1) { return }
            }
            await self?.reconnectGaveUp(plan)
        }
    }

    private func reconnectStillWanted(_ plan: ReconnectPlan) -> Bool {
        readerLink.reconnectPlan?.id == plan.id && readerLink.connection == nil && !Task.isCancelled
    }

    /// One attempt: a new transport, pairing, and the device info. True when connected.
    private func attemptReconnect(_ plan: ReconnectPlan, attempt: Int) async -> Bool {
        guard !state.isBusy else { return false }
        emit(.readerConnecting(attempt: attempt))
        let transport: any ReaderTransport
        do { transport = try await plan.open() } catch { return false }
        do {
            readerLink.reconnecting = nil  // the new link's own drop may schedule the next round
            try await pair(transport: transport, secret: plan.secret)
            return true
        } catch {
            await transport.close()
            return false
        }
    }

    private func reconnectGaveUp(_ plan: ReconnectPlan) {
        guard readerLink.reconnectPlan?.id == plan.id, readerLink.connection == nil else { return }
        readerLink.reconnecting = nil
        readerLink.reconnectPlan = nil
        emit(.readerConnection(connected: false, info: nil))
    }
}

/// What a reconnection needs, kept from ``ReaderTools/connect(secret:reconnect:open:)``.
struct ReconnectPlan: Sendable {
    let id = UniqueToken()
    let policy: ReconnectPolicy
    let secret: SharedSecret
    let open: ReaderTransportFactory
}

/// An identity for a value type.
final class UniqueToken: Sendable, Equatable {
    static func == (lhs: UniqueToken, rhs: UniqueToken) -> Bool { lhs === rhs }
}
