import MPOSCore
import ReaderLink

/// Finding readers, and connecting to one that was found.
extension PaymentTerminal {
    /// Scans for readers with every scanner at once, for `scanTime` on the terminal's clock,
    /// and returns the readers found, each once, in the order they answered (see
    /// ``ReaderDiscovery``).
    ///
    /// Each new reader is also a ``TerminalEvent/readerDiscovered(_:)`` event as it is found
    /// (category ``TerminalEventCategory/discovery``), so a list can fill while the scan runs;
    /// ``TerminalEvent/discoveryFinished(readers:)`` follows at the end. Cancelling the
    /// calling task ends the scan early with what was found. A scan does not touch the
    /// connected reader and may run during a payment.
    ///
    /// ```swift
    /// let readers = await terminal.reader.discover(scanners: [TCPReaderScanner()])
    /// if let reader = readers.first { try await terminal.connectReader(reader, secret: secret) }
    /// ```
    func discoverReaders(scanners: [any ReaderScanner], scanTime: Duration = .seconds(5)) async
        -> [DiscoveredReader]
    {
        var readers: [DiscoveredReader] = []
        for await found in ReaderDiscovery(scanners: scanners, scanTime: scanTime, clock: clock).readers() {
            var reader = found
            if let catalogue = readerLink.catalogue {
                // Only the models the app supports, under the names it gives them.
                guard let terminal = catalogue.terminal(model: found.model) else { continue }
                var announcement = found.announcement
                announcement.name = terminal.name
                reader = DiscoveredReader(
                    announcement: announcement, transportKind: found.transportKind, address: found.address,
                    open: found.open)
            }
            readers.append(reader)
            emit(.readerDiscovered(reader))
        }
        emit(.discoveryFinished(readers: readers.count))
        return readers
    }

    /// Connects to a reader that discovery found and pairs with `secret`, within `timeout` on
    /// the terminal's clock (opening the link and pairing together). Reconnects after a drop
    /// as ``ReaderTools/connect(secret:reconnect:open:)`` does.
    ///
    /// - Throws: ``MPOSError/readerConnectTimeout`` when the reader is not reached and paired
    ///   in time; ``MPOSError/readerLinkFailed`` when it cannot be reached or refuses to pair
    ///   (wrong secret); the code `MPOSError.Code.readerInUse` when another terminal holds it;
    ///   ``MPOSError/terminalBusy`` during an operation.
    func connectReader(
        _ reader: DiscoveredReader, secret: SharedSecret, timeout: Duration = .seconds(15),
        reconnect: ReconnectPolicy? = .standard
    ) async throws(MPOSError) {
        try await connect(secret: secret, reconnect: reconnect, timeout: timeout, open: reader.open)
    }

    /// Opens a link through `open` and pairs, within `timeout` when one is given; keeps the
    /// way back for reconnection.
    func connect(
        secret: SharedSecret, reconnect: ReconnectPolicy?, timeout: Duration?,
        open: @escaping ReaderTransportFactory
    ) async throws(MPOSError) {
        guard !state.isBusy else { throw MPOSError.terminalBusy }
        await disconnect()
        try await connecting { () async throws(MPOSError) in
            let watch = Stopwatch(clock)
            let transport = try await Self.open(open, within: timeout, on: clock)
            let left = timeout.map { $0 - watch.elapsed }
            if let left, left <= .zero {
                await transport.close()
                throw MPOSError.readerConnectTimeout
            }
            try await pair(transport: transport, secret: secret, pairingTimeout: left)
        }
        if let reconnect { readerLink.reconnectPlan = ReconnectPlan(policy: reconnect, secret: secret, open: open) }
        readerLink.linkPlan = ReconnectPlan(policy: reconnect ?? .standard, secret: secret, open: open)
        try await applyUpdatesOnConnect()
    }

    /// A new link from `open`, or ``MPOSError/readerConnectTimeout`` when `timeout` passes
    /// first (a link that opens later is closed).
    private static func open(
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
