import MPOSCore
import ReaderLink

/// The connected card reader's own tools, reached as ``PaymentTerminal/reader``: its
/// description and battery, its log (Handpoint's logSetLevel / logGetInfo / logReset), its
/// barcode scanner (Handpoint's enableScanner / disableScanner), and finding readers to connect.
///
/// ```swift
/// let battery = try await terminal.reader.battery()
/// try await terminal.reader.setLogLevel(.debug)
/// let logs = try await terminal.reader.logs()
/// ```
public struct ReaderTools: Sendable {
    let terminal: PaymentTerminal

    /// The low-battery threshold a terminal starts with: 10 %.
    public static let defaultBatteryLowThreshold = 10
    /// How long discovery scans unless told otherwise, and when told zero: 5 s (the ECP seed's).
    public static let defaultScanTime: Duration = .seconds(5)
    /// How long connecting to a discovered reader may take unless told otherwise, and when
    /// told zero: 15 s (the ECP seed's).
    public static let defaultConnectTimeout: Duration = .seconds(15)

    /// Pairs with a reader over `transport` and keeps the link alive with pings. A transport
    /// opened once cannot be opened again: use ``connect(secret:reconnect:open:)`` for a reader
    /// the terminal should reach again after a drop or an update's restart.
    ///
    /// ```swift
    /// try await terminal.reader.connect(
    ///     transport: try await TCPTransport.connect(host: "127.0.0.1", port: 4000), secret: secret)
    /// ```
    ///
    /// - Throws: ``MPOSError/terminalBusy`` during an operation, the code
    ///   `MPOSError.Code.readerInUse` when another terminal holds the reader,
    ///   `MPOSError.Code.readerSharedSecretMismatch` when the reader holds another secret, and
    ///   ``MPOSError/readerLinkFailed`` when the link drops or times out during pairing;
    ///   ``MPOSError/readerNotSupported`` when the ``catalogue`` does not list its model.
    public func connect(transport: any ReaderTransport, secret: SharedSecret) async throws(MPOSError) {
        try await terminal.connectReader(transport: transport, secret: secret)
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
    ///   another terminal holds the reader.
    public func connect(
        secret: SharedSecret, reconnect: ReconnectPolicy? = .standard, open: @escaping ReaderTransportFactory
    ) async throws(MPOSError) {
        try await terminal.connectReader(secret: secret, reconnect: reconnect, open: open)
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
        try await terminal.connectReader(reader, secret: secret, timeout: timeout, reconnect: reconnect)
    }

    /// Sets the app's terminal catalogue (the Accept seed's `paymentmethods.xml`), or removes
    /// it with nil: from the next discovery, connect and payment on, only its models are
    /// listed and connected, under its names, and each model's blacklisted cards are declined
    /// before anything reaches the gateway. Without one, every reader and card is taken.
    public func setCatalogue(_ catalogue: TerminalCatalogue?) async { await terminal.setCatalogue(catalogue) }

    /// The terminal catalogue in force, if any.
    public var catalogue: TerminalCatalogue? { get async { await terminal.readerLink.catalogue } }

    /// Whether a reader is connected, being connected (a connect, or a reconnection after a
    /// drop, between its attempts too), or not: the ECP seed's connection status. Each change
    /// also comes as a ``TerminalEvent/readerConnecting(attempt:)`` or
    /// ``TerminalEvent/readerConnection(connected:info:)`` event.
    public var connectionState: ReaderConnectionState {
        get async { await terminal.readerLink.connectionState }
    }

    /// The connected reader's description (serial number, model, versions, battery).
    ///
    /// - Throws: ``MPOSError/readerNotConnected``, ``MPOSError/readerLinkFailed``.
    public func info() async throws(MPOSError) -> DeviceInfo { try await terminal.deviceInfo() }

    /// Asks the connected reader for its battery. A level under the low-battery threshold
    /// also raises ``TerminalEvent/batteryLow(_:)`` (once, until it recovers).
    ///
    /// Ask between payments: a reader answers during one too, but the app has nothing to do
    /// with the answer then.
    ///
    /// ```swift
    /// let battery = try await terminal.reader.battery()
    /// print("\(battery.percentage)%", battery.isCharging ? "charging" : "")
    /// ```
    ///
    /// - Throws: ``MPOSError/readerNotConnected``, ``MPOSError/readerLinkFailed``.
    public func battery() async throws(MPOSError) -> BatteryStatus { try await terminal.batteryLevel() }

    /// Sets the percentage under which a battery report raises ``TerminalEvent/batteryLow(_:)``
    /// (``defaultBatteryLowThreshold`` until set; clamped to 0–100, and 0 turns the warning
    /// off). Reports come from ``battery()``, ``info()`` (also asked on connect) and the
    /// reader's own battery messages.
    public func setBatteryLowThreshold(_ percentage: Int) async {
        await terminal.setBatteryLowThreshold(percentage)
    }

    /// The low-battery threshold in force.
    public var batteryLowThreshold: Int { get async { await terminal.readerLink.battery.threshold } }

    /// Sets how much the reader logs: `.none`, `.info`, `.full` or `.debug` (Handpoint's
    /// `eLogNone` … `eLogDebug`).
    ///
    /// - Throws: ``MPOSError/readerNotConnected``, ``MPOSError/readerLinkFailed``, or the
    ///   reader's refusal as ``MPOSError/readerRefused``.
    public func setLogLevel(_ level: ReaderLogLevel) async throws(MPOSError) {
        try await terminal.askForAck(.setLogLevel(level), "the log level")
    }

    /// Reads the reader's log. An empty log answers ``ReaderLogs/status``
    /// ``ReaderStatusCode/noDataAvailable``, not an error.
    ///
    /// ```swift
    /// try await terminal.reader.setLogLevel(.debug)
    /// let logs = try await terminal.reader.logs()
    /// if logs.status == .noDataAvailable { print("nothing logged yet") }
    /// ```
    ///
    /// - Throws: ``MPOSError/readerNotConnected``, ``MPOSError/readerLinkFailed``.
    public func logs() async throws(MPOSError) -> ReaderLogs { try await terminal.readerLogs() }

    /// Clears the reader's log.
    ///
    /// - Throws: ``MPOSError/readerNotConnected``, ``MPOSError/readerLinkFailed``.
    public func resetLogs() async throws(MPOSError) {
        try await terminal.askForAck(.resetLogs, "the log reset")
    }

    /// Turns the reader's barcode scanner on. The defaults are the Handpoint seed's: multi-scan
    /// (scan until ``disableScanner()`` or the timeout; `false` switches off after one code),
    /// button mode (the operator presses the scan button), and a timeout the reader chooses
    /// (`0`; otherwise seconds of inactivity). Codes arrive on ``scans()`` and as
    /// ``TerminalEvent/scan(_:)``.
    ///
    /// ```swift
    /// try await terminal.reader.enableScanner(multiScan: false)
    /// for await scan in terminal.reader.scans() { print(scan.barcode, scan.symbology); break }
    /// ```
    ///
    /// - Throws: ``MPOSError/readerNotConnected``, ``MPOSError/readerLinkFailed``, or the
    ///   reader's refusal as ``MPOSError/readerRefused``.
    public func enableScanner(multiScan: Bool = true, buttonMode: Bool = true, timeoutSeconds: UInt16 = 0)
        async throws(MPOSError)
    {
        let configuration = ScannerConfiguration(
            multiScan: multiScan, buttonMode: buttonMode, timeoutSeconds: timeoutSeconds)
        try await terminal.askForAck(.enableScanner(configuration), "the scanner request")
    }

    /// Turns the reader's barcode scanner off.
    ///
    /// - Throws: ``MPOSError/readerNotConnected``, ``MPOSError/readerLinkFailed``.
    public func disableScanner() async throws(MPOSError) {
        try await terminal.askForAck(.disableScanner, "the scanner request")
    }

    /// The codes the reader's scanner reads from now on, for as long as the caller listens
    /// (the same codes as ``TerminalEvent/scan(_:)``; each listener gets every code).
    public func scans() -> some AsyncSequence<ScanEvent, Never> & Sendable {
        terminal.events.subscribe([.scanner]).compactMap { event -> ScanEvent? in
            if case .scan(let scan) = event { scan } else { nil }
        }
    }

    /// Scans for readers with every scanner at once, for `scanTime` on the terminal's clock
    /// (``defaultScanTime``, 5 s, by default and when zero or less is given, as the ECP seed's
    /// `scanTime`), and returns the readers found, each once, in the order they answered (see
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
    /// if let found = readers.first { try await terminal.reader.connect(found, secret: secret) }
    /// ```
    public func discover(scanners: [any ReaderScanner], scanTime: Duration = defaultScanTime) async
        -> [DiscoveredReader]
    {
        await terminal.discoverReaders(
            scanners: scanners, scanTime: scanTime > .zero ? scanTime : Self.defaultScanTime)
    }
}
