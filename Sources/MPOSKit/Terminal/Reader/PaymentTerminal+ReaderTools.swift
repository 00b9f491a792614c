import MPOSCore
import ReaderLink

/// What ``ReaderTools/logs()`` read from the reader.
public struct ReaderLogs: Sendable, Hashable {
    /// The reader's log lines, oldest first. They never hold card data.
    public var lines: [String]
    /// ``ReaderStatusCode/success`` with lines, or ``ReaderStatusCode/noDataAvailable`` (the
    /// Handpoint seed's `EFT_NO_DATA_AVAILABLE`, `000A`) when the log is empty: set a log
    /// level with ``ReaderTools/setLogLevel(_:)`` and try again. An empty log is
    /// a status, not an error.
    public var status: ReaderStatusCode

    /// Logs as read.
    public init(lines: [String]) {
        self.lines = lines
        self.status = lines.isEmpty ? .noDataAvailable : .success
    }
}

/// The reader requests behind ``ReaderTools``.
extension PaymentTerminal {
    /// Reads the reader's log; an empty one is a status, not an error.
    func readerLogs() async throws(MPOSError) -> ReaderLogs {
        switch try await askReader(.fetchLogs, "the log request") {
        case .answer(.logs(let lines)): ReaderLogs(lines: lines)
        case .refused(.noDataAvailable, _): ReaderLogs(lines: [])
        case .refused(let status, let detail): throw Self.refusal("the log request", status, detail)
        case .answer: throw MPOSError.readerLinkFailed.withMessage("The reader answered the log request with another message.")
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
        guard let connection = readerLink.connection else { throw MPOSError.readerNotConnected }
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

extension PaymentTerminal {
    /// Sets the terminal catalogue (``ReaderTools/setCatalogue(_:)``).
    func setCatalogue(_ catalogue: TerminalCatalogue?) { readerLink.catalogue = catalogue }
}
