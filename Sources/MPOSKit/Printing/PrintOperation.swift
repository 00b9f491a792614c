import MPOSCore

/// One step of a print job, the states of the Accept SDK's print progress.
public enum PrintProgress: Sendable, Hashable {
    /// Opening the link to the printer.
    case connecting
    /// Reading the printer's status (`DLE EOT`) before the job.
    case checkingStatus
    /// `bytesSent` of `bytesTotal` bytes have reached a printer that still reports ready.
    case printing(bytesSent: Int, bytesTotal: Int)
    /// Reading the status after the job, to confirm it printed.
    case confirming
    /// The job printed whole.
    case finished
    /// The job did not print whole; the operation's report says why and where it stopped.
    case failed(MPOSError)
}

/// What became of a print job.
public struct PrintReport: Sendable, Hashable {
    /// The job's length.
    public var bytesTotal: Int
    /// Bytes the printer took while it still reported ready: the whole job when it printed,
    /// otherwise the point up to which it is known to have printed.
    public var bytesSent: Int
    /// The last status the printer reported, or nil when it answers none (a file) or was
    /// never reached.
    public var status: PrinterStatus?
    /// Why the job did not print whole, or nil when it did.
    public var error: MPOSError?

    /// Creates a report.
    public init(bytesTotal: Int, bytesSent: Int, status: PrinterStatus?, error: MPOSError?) {
        self.bytesTotal = bytesTotal
        self.bytesSent = bytesSent
        self.status = status
        self.error = error
    }

    /// True when the job printed whole.
    public var printed: Bool { error == nil }

    /// The report, or its error when the job did not print whole.
    ///
    /// - Throws: the ``error``: ``MPOSError/printerUnreachable``,
    ///   ``MPOSError/printerNotResponding``, ``MPOSError/printerOffline``,
    ///   ``MPOSError/printerCoverOpen``, ``MPOSError/printerPaperOut`` or
    ///   ``MPOSError/printerFault``.
    @discardableResult
    public func get() throws(MPOSError) -> PrintReport {
        if let error { throw error }
        return self
    }
}

/// A running print job: its ``progress`` and its ``result()``.
///
/// ```swift
/// let job = printer.print(receipt, copy: .customer)
/// for await step in job.progress { show(step) }
/// try await job.result().get()
/// ```
public final class PrintOperation: Sendable {
    /// The job's steps, ending with ``PrintProgress/finished`` or ``PrintProgress/failed(_:)``.
    public let progress: AsyncStream<PrintProgress>
    private let task: Task<PrintReport, Never>

    init(progress: AsyncStream<PrintProgress>, task: Task<PrintReport, Never>) {
        self.progress = progress
        self.task = task
    }

    /// Waits for the job to end.
    public func result() async -> PrintReport { await task.value }
}
