import MPOSCore
import ReaderLink

/// The app's ways to connect a reader: a transport opened once, a factory the terminal reaches
/// the reader through again, or a reader discovery found.
extension CardReaderLink {
    /// Pairs with a reader over `transport` and keeps the link alive with pings. A transport
    /// opened once cannot be opened again: use ``connect(secret:reconnect:open:)`` for a reader
    /// the terminal should reach again after a drop or an update's restart.
    ///
    /// - Throws: ``MPOSError/terminalBusy`` during an operation, the code
    ///   `MPOSError.Code.readerInUse` when another terminal holds the reader,
    ///   `MPOSError.Code.readerSharedSecretMismatch` when the reader holds another secret, and
    ///   ``MPOSError/readerLinkFailed`` when the link drops or times out during pairing;
    ///   ``MPOSError/readerNotSupported`` when the ``catalogue`` does not list its model.
    public func connect(transport: any ReaderTransport, secret: SharedSecret) async throws(MPOSError) {
        try await appConnect(route: nil) { () async throws(MPOSError) in
            try await self.pair(transport: transport, secret: secret, pairingTimeout: nil)
        }
    }

    /// Connects to a reader through `open` (for example
    /// `{ try await TCPTransport.connect(host: host, port: port) }`) and pairs with `secret`.
    /// When the link drops, the terminal opens a new one through `open` and pairs again,
    /// waiting as `reconnect` says (``ReconnectPolicy/standard`` by default; `nil` turns it
    /// off) and never while an operation runs. ``PaymentTerminal/disconnect()`` or another
    /// connect stops it.
    ///
    /// - Throws: ``MPOSError/terminalBusy`` during an operation; ``MPOSError/readerLinkFailed``
    ///   when the link cannot be opened or paired; the code `MPOSError.Code.readerInUse` when
    ///   another terminal holds the reader (reconnection attempts that meet it keep trying: the
    ///   holder may be this terminal's dead link, which the reader drops once it has been
    ///   silent for `ReaderLinkProtocol.idleLinkLimit`).
    public func connect(
        secret: SharedSecret, reconnect: ReconnectPolicy? = .standard, open: @escaping ReaderTransportFactory
    ) async throws(MPOSError) {
        try await connect(secret: secret, reconnect: reconnect, timeout: nil, open: open)
    }

    /// Connects to a reader that ``discover(scanners:scanTime:)`` found and pairs with
    /// `secret`, within `timeout` on the terminal's clock (``defaultConnectTimeout``, 15 s, by
    /// default and when zero or less is given, as the ECP seed's `connectTimeout`); reconnects
    /// after a drop as ``connect(secret:reconnect:open:)`` does.
    ///
    /// - Throws: ``MPOSError/readerConnectTimeout`` when the reader is not reached and paired
    ///   in time; ``MPOSError/readerLinkFailed`` when it cannot be reached or refuses to pair;
    ///   the code `MPOSError.Code.readerInUse` when another terminal holds it;
    ///   ``MPOSError/terminalBusy`` during an operation; ``MPOSError/readerNotSupported`` when
    ///   the ``catalogue`` does not list its model.
    public func connect(
        _ reader: DiscoveredReader, secret: SharedSecret, timeout: Duration = defaultConnectTimeout,
        reconnect: ReconnectPolicy? = .standard
    ) async throws(MPOSError) {
        let timeout = timeout > .zero ? timeout : Self.defaultConnectTimeout
        try await connect(secret: secret, reconnect: reconnect, timeout: timeout, open: reader.open)
    }

    /// Opens a link through `open` and pairs, within `timeout` when one is given; keeps the
    /// way back for reconnection and for an update's restart.
    func connect(
        secret: SharedSecret, reconnect: ReconnectPolicy?, timeout: Duration?, open: @escaping ReaderTransportFactory
    ) async throws(MPOSError) {
        let route = Machine.Route(reconnect: reconnect, secret: secret, open: open)
        try await appConnect(route: route) { () async throws(MPOSError) in
            let watch = Stopwatch(self.clock)
            let transport = try await Self.open(open, within: timeout, on: self.clock)
            let left = timeout.map { $0 - watch.elapsed }
            if let left, left <= .zero {
                await transport.close()
                throw MPOSError.readerConnectTimeout
            }
            return try await self.pair(transport: transport, secret: secret, pairingTimeout: left)
        }
    }

    /// Why pairing failed, in words that point at the link rather than at the secret.
    static func pairingFailure(_ error: ReaderLinkError) -> String {
        switch error {
        case .linkClosed: "the link closed during pairing (the reader or the network dropped it)"
        case .timeout: "the reader did not complete pairing in time"
        default: error.description
        }
    }

    /// A new link from `open`, or ``MPOSError/readerConnectTimeout`` when `timeout` passes
    /// first (a link that opens later is closed).
    static func open(
        _ open: @escaping ReaderTransportFactory, within timeout: Duration?, on clock: any Clock<Duration>
    ) async throws(MPOSError) -> any ReaderTransport {
        let attempt: @Sendable () async -> Result<any ReaderTransport, any Error> = {
            do { return .success(try await open()) } catch { return .failure(error) }
        }
        let outcome: Result<any ReaderTransport, any Error>?
        if let timeout {
            outcome = await Deadline.first(attempt, orNilAfter: timeout, on: clock) { late in
                if case .success(let transport) = late { await transport.close() }
            }
        } else {
            outcome = await attempt()
        }
        switch outcome {
        case nil: throw MPOSError.readerConnectTimeout
        case .failure(let error)?:
            throw MPOSError.readerLinkFailed.withMessage("The reader could not be reached: \(error).")
        case .success(let transport)?: return transport
        }
    }
}
