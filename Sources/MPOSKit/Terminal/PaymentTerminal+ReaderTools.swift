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
        switch try await askReader(request, what) {
        case .answer(.ack): return
        case .refused(let status, let detail): throw Self.refusal(what, status, detail)
        case .answer: throw MPOSError.readerLinkFailed.withMessage("The reader answered \(what) with another message.")
        }
    }

    /// A reader's answer, or its error answer told apart from a failed link.
    enum ReaderReply {
        case answer(ReaderMessage)
        case refused(ReaderStatusCode, String)
    }

    /// Sends `request`; an error answer is a ``ReaderReply/refused(_:_:)``, not a link failure.
    func askReader(_ request: ReaderMessage, _ what: String, timeout: Duration? = nil)
        async throws(MPOSError) -> ReaderReply
    {
        guard let connection else { throw MPOSError.readerNotConnected }
        do {
            if let timeout { return .answer(try await connection.request(request, timeout: timeout)) }
            return .answer(try await connection.request(request))
        } catch .rejected(let status, let detail) {
            return .refused(status, detail)
        } catch {
            throw MPOSError.readerLinkFailed.withMessage("The reader did not answer \(what): \(error).")
        }
    }

    static func refusal(_ what: String, _ status: ReaderStatusCode, _ detail: String) -> MPOSError {
        MPOSError.readerRefused.withMessage("The reader refused \(what): \(status.description) (\(detail)).")
    }
}
