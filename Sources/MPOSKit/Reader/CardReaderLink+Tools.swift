import MPOSCore
import ReaderLink

/// The reader's own tools: battery, log, scanner, catalogue and discovery.
extension CardReaderLink {
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
    public func battery() async throws(MPOSError) -> BatteryStatus {
        let status: BatteryStatus = try await ask(.getBattery, "the battery request") { answer in
            if case .battery(let status) = answer { status } else { nil }
        }
        noteBattery(status)
        return status
    }

    /// Sets the percentage under which a battery report raises ``TerminalEvent/batteryLow(_:)``
    /// (``defaultBatteryLowThreshold`` until set; clamped to 0–100, and 0 turns the warning
    /// off). Reports come from ``battery()``, ``info()`` (also asked on connect) and the
    /// reader's own battery messages.
    public func setBatteryLowThreshold(_ percentage: Int) {
        setBatteryThreshold(min(100, max(0, percentage)))
    }

    /// The connected reader's description (serial number, model, versions, battery).
    ///
    /// - Throws: ``MPOSError/readerNotConnected``, ``MPOSError/readerLinkFailed``.
    public func info() async throws(MPOSError) -> DeviceInfo { try await deviceInfo() }

    /// Sets how much the reader logs: `.none`, `.info`, `.full` or `.debug` (Handpoint's
    /// `eLogNone` … `eLogDebug`).
    ///
    /// - Throws: ``MPOSError/readerNotConnected``, ``MPOSError/readerLinkFailed``, or the
    ///   reader's refusal as ``MPOSError/readerRefused``.
    public func setLogLevel(_ level: ReaderLogLevel) async throws(MPOSError) {
        try await askForAck(.setLogLevel(level), "the log level")
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
    public func logs() async throws(MPOSError) -> ReaderLogs {
        switch try await askReader(.fetchLogs, "the log request") {
        case .answer(.logs(let lines)): ReaderLogs(lines: lines)
        case .refused(.noDataAvailable, _): ReaderLogs(lines: [])
        case .refused(let status, let detail): throw Self.refusal("the log request", status, detail)
        case .answer: throw MPOSError.readerLinkFailed.withMessage("The reader answered the log request with another message.")
        }
    }

    /// Clears the reader's log.
    ///
    /// - Throws: ``MPOSError/readerNotConnected``, ``MPOSError/readerLinkFailed``.
    public func resetLogs() async throws(MPOSError) {
        try await askForAck(.resetLogs, "the log reset")
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
    ///   reader's refusal as ``MPOSError/readerRefused`` (a reader without a scanner refuses
    ///   with ``ReaderStatusCode/scannerIsNotSupported``, named in the message).
    public func enableScanner(multiScan: Bool = true, buttonMode: Bool = true, timeoutSeconds: UInt16 = 0)
        async throws(MPOSError)
    {
        let configuration = ScannerConfiguration(
            multiScan: multiScan, buttonMode: buttonMode, timeoutSeconds: timeoutSeconds)
        try await askForAck(.enableScanner(configuration), "the scanner request")
    }

    /// Turns the reader's barcode scanner off.
    ///
    /// - Throws: ``MPOSError/readerNotConnected``, ``MPOSError/readerLinkFailed``.
    public func disableScanner() async throws(MPOSError) {
        try await askForAck(.disableScanner, "the scanner request")
    }

    /// The codes the reader's scanner reads from now on, for as long as the caller listens
    /// (the same codes as ``TerminalEvent/scan(_:)``; each listener gets every code).
    public nonisolated func scans() -> some AsyncSequence<ScanEvent, Never> & Sendable {
        events.subscribe([.scanner]).compactMap { event -> ScanEvent? in
            if case .scan(let scan) = event { scan } else { nil }
        }
    }

    /// Sets the app's terminal catalogue (the Accept seed's `paymentmethods.xml`), or removes
    /// it with nil: from the next discovery, connect and payment on, only its models are
    /// listed and connected, under its names, and each model's blacklisted cards are declined
    /// before anything reaches the gateway. Without one, every reader and card is taken.
    public func setCatalogue(_ catalogue: TerminalCatalogue?) { replaceCatalogue(catalogue) }

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
    /// With a catalogue set (``setCatalogue(_:)``), only its models are listed, under its
    /// names; `allDevices` lists every reader that answered (the Heft seed's
    /// `startDiscovery(discoverAllDevices: YES)`), the others under their own names, and
    /// ``isSupported(_:)`` tells them apart (connecting one is refused).
    ///
    /// ```swift
    /// let readers = await terminal.reader.discover(scanners: [TCPReaderScanner()])
    /// if let found = readers.first { try await terminal.reader.connect(found, secret: secret) }
    /// ```
    public func discover(scanners: [any ReaderScanner], scanTime: Duration = defaultScanTime, allDevices: Bool = false)
        async -> [DiscoveredReader]
    {
        let scanTime = scanTime > .zero ? scanTime : Self.defaultScanTime
        var readers: [DiscoveredReader] = []
        for await found in ReaderDiscovery(scanners: scanners, scanTime: scanTime, clock: clock).readers() {
            var reader = found
            if let catalogue {
                // Only the models the app supports, under the names it gives them (all, when asked).
                guard let terminal = catalogue.terminal(model: found.model) else {
                    if allDevices {
                        readers.append(found)
                        events.emit(.readerDiscovered(found))
                    }
                    continue
                }
                var announcement = found.announcement
                announcement.name = terminal.name
                reader = DiscoveredReader(
                    announcement: announcement, transportKind: found.transportKind, address: found.address,
                    open: found.open)
            }
            readers.append(reader)
            events.emit(.readerDiscovered(reader))
        }
        for reader in readers where !discoveredReaders.contains(where: { $0.id == reader.id }) {
            discoveredReaders.append(reader)
        }
        events.emit(.discoveryFinished(readers: readers.count))
        return readers
    }

    /// Forgets the readers earlier scans found (the Heft seed's `resetDevices`); the connected
    /// reader stays connected.
    public func resetDiscoveredReaders() { discoveredReaders = [] }

    /// Whether `reader` is one the terminal connects: every reader without a catalogue, only
    /// the catalogue's models with one.
    public func isSupported(_ reader: DiscoveredReader) -> Bool {
        guard let catalogue else { return true }
        return catalogue.terminal(model: reader.model) != nil
    }
}

/// What ``CardReaderLink/logs()`` read from the reader.
public struct ReaderLogs: Sendable, Hashable {
    /// The reader's log lines, oldest first. They never hold card data.
    public var lines: [String]
    /// ``ReaderStatusCode/success`` with lines, or ``ReaderStatusCode/noDataAvailable`` (the
    /// Handpoint seed's `EFT_NO_DATA_AVAILABLE`, `000A`) when the log is empty: set a log
    /// level with ``CardReaderLink/setLogLevel(_:)`` and try again. An empty log is
    /// a status, not an error.
    public var status: ReaderStatusCode

    /// Logs as read.
    public init(lines: [String]) {
        self.lines = lines
        self.status = lines.isEmpty ? .noDataAvailable : .success
    }
}

/// The name the reader part had when it was a view onto the terminal.
@available(*, deprecated, renamed: "CardReaderLink")
public typealias ReaderTools = CardReaderLink
