import MPOSCore
import ReaderLink

/// What ``PaymentTerminal/readerLogs()`` read from the reader.
public struct ReaderLogs: Sendable, Hashable {
    /// The reader's log lines, oldest first. They never hold card data.
    public var lines: [String]
    /// ``ReaderStatusCode/success`` with lines, or ``ReaderStatusCode/noDataAvailable`` (the
    /// Handpoint seed's `EFT_NO_DATA_AVAILABLE`, `000A`) when the log is empty: set a log
    /// level with ``PaymentTerminal/setReaderLogLevel(_:)`` and try again. An empty log is
    /// a status, not an error.
    public var status: ReaderStatusCode

    /// Logs as read.
    public init(lines: [String]) {
        self.lines = lines
        self.status = lines.isEmpty ? .noDataAvailable : .success
    }
}

/// The reader's own tools: its log (Handpoint's logSetLevel / logGetInfo / logReset) and its
/// barcode scanner (Handpoint's enableScanner / disableScanner / responseScannerEvent).
extension PaymentTerminal {
    /// Sets how much the reader logs: `.none`, `.info`, `.full` or `.debug` (Handpoint's
    /// `eLogNone` … `eLogDebug`).
    ///
    /// - Throws: ``MPOSError/readerNotConnected``, ``MPOSError/readerLinkFailed``, or the
    ///   reader's refusal as ``MPOSError/readerRefused``.
    public func setReaderLogLevel(_ level: ReaderLogLevel) async throws(MPOSError) {
        try await askForAck(.setLogLevel(level), "the log level")
    }

    /// Reads the reader's log. An empty log answers ``ReaderLogs/status``
    /// ``ReaderStatusCode/noDataAvailable``, not an error.
    ///
    /// ```swift
    /// try await terminal.setReaderLogLevel(.debug)
    /// let logs = try await terminal.readerLogs()
    /// if logs.status == .noDataAvailable { print("nothing logged yet") }
    /// ```
    ///
    /// - Throws: ``MPOSError/readerNotConnected``, ``MPOSError/readerLinkFailed``.
    public func readerLogs() async throws(MPOSError) -> ReaderLogs {
        try await ask(.fetchLogs, "the log request") { answer in
            switch answer {
            case .logs(let lines): ReaderLogs(lines: lines)
            case .error(.noDataAvailable, _): ReaderLogs(lines: [])
            default: nil
            }
        }
    }

    /// Clears the reader's log.
    ///
    /// - Throws: ``MPOSError/readerNotConnected``, ``MPOSError/readerLinkFailed``.
    public func resetReaderLogs() async throws(MPOSError) {
        try await askForAck(.resetLogs, "the log reset")
    }

    /// Turns the reader's barcode scanner on. The defaults are the Handpoint seed's: multi-scan
    /// (scan until ``disableScanner()`` or the timeout; `false` switches off after one code),
    /// button mode (the operator presses the scan button), and a timeout the reader chooses
    /// (`0`; otherwise seconds of inactivity). Codes arrive on ``scans()`` and as
    /// ``TerminalEvent/scan(_:)``.
    ///
    /// ```swift
    /// try await terminal.enableScanner(multiScan: false)
    /// for await scan in terminal.scans() { print(scan.barcode, scan.symbology); break }
    /// ```
    ///
    /// - Throws: ``MPOSError/readerNotConnected``, ``MPOSError/readerLinkFailed``, or the
    ///   reader's refusal as ``MPOSError/readerRefused``.
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
    public func scans() -> some AsyncSequence<ScanEvent, Never> & Sendable {
        subscribe([.scanner]).compactMap { event -> ScanEvent? in
            if case .scan(let scan) = event { scan } else { nil }
        }
    }

    /// Sends a request whose answer is an acknowledgement; a reader's error answer is thrown
    /// as ``MPOSError/readerRefused`` with the reader's status.
    func askForAck(_ request: ReaderMessage, _ what: String) async throws(MPOSError) {
        let refusal: (ReaderStatusCode, String)? = try await ask(request, what) { answer in
            switch answer {
            case .ack: .some(nil)
            case .error(let status, let detail): .some((status, detail))
            default: nil
            }
        }
        if let (status, detail) = refusal {
            throw MPOSError.readerRefused.withMessage(
                "The reader refused \(what): \(status.description) (\(detail)).")
        }
    }
}
