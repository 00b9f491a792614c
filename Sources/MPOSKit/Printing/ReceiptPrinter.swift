import Foundation
import MPOSCore

/// A receipt printer the app prints on and opens the cash drawer through: ESC/POS over a
/// ``PrinterConnection`` that `connect` opens for each job.
///
/// Before a job the printer's status is read with `DLE EOT`; a printer that is offline, has
/// its cover open, is out of paper or reports an error gets nothing, and the job fails with
/// the error naming the condition. The job then goes out in pieces of ``chunkSize`` bytes,
/// each followed by a status request, so a printer that stops mid-job (the paper runs out) is
/// noticed and the report says how many bytes it took while still ready. The status is read
/// once more after the job. A link that does not answer status requests (a file) is written
/// without them.
///
/// ```swift
/// let printer = ReceiptPrinter(profile: .paper58mm) {
///     TransportPrinterConnection(try await TCPTransport.connect(host: host, port: ReceiptPrinter.defaultPort))
/// }
/// let job = printer.print(receipt, copy: .customer)
/// for await step in job.progress { print(step) }
/// try await job.result().get()
/// ```
public actor ReceiptPrinter {
    /// Opens the link to the printer.
    public typealias Connector = @Sendable () async throws -> any PrinterConnection

    /// The raw TCP port of network receipt printers (JetDirect / "RAW" printing).
    public static let defaultPort = 9100

    /// The printer's paper, columns and code page.
    public nonisolated let profile: PrinterProfile
    /// How long each status answer may take.
    public nonisolated let statusTimeout: Duration
    /// How many bytes go out between two status requests at most, unless one command is
    /// longer: a request is only ever sent between two commands.
    public nonisolated let chunkSize: Int
    private let connector: Connector
    private let clock: any Clock<Duration>
    /// Whether a job or a drawer command holds the printer, and who waits for it: one at a
    /// time, as a network printer serves one connection at a time.
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Creates a printer.
    ///
    /// - Parameters:
    ///   - profile: the printer's profile.
    ///   - clock: the clock of the status timeout (a manual clock in tests).
    ///   - statusTimeout: how long an answer to `DLE EOT` may take; 3 s by default.
    ///   - chunkSize: bytes sent between status requests; 1,024 by default.
    ///   - connect: opens the link; an error it throws fails the job with
    ///     ``MPOSError/printerUnreachable`` (or the `MPOSError` it throws).
    public init(
        profile: PrinterProfile = .paper80mm, clock: any Clock<Duration> = ContinuousClock(),
        statusTimeout: Duration = .seconds(3), chunkSize: Int = 1_024, connect: @escaping Connector
    ) {
        self.profile = profile
        self.clock = clock
        self.statusTimeout = statusTimeout
        self.chunkSize = max(1, chunkSize)
        self.connector = connect
    }

    /// Prints `copy` of `receipt` as ``PaymentReceipt/escPos(_:profile:logo:timeZone:)``
    /// renders it for this printer's profile.
    public nonisolated func print(
        _ receipt: PaymentReceipt, copy: ReceiptCopy, logo: MonochromeBitmap? = nil,
        timeZone: TimeZone = TimeZone(secondsFromGMT: 0)!
    ) -> PrintOperation {
        print(receipt.escPosJob(copy, profile: profile, logo: logo, timeZone: timeZone))
    }

    /// Prints an encoder's job, checking the status between its commands every
    /// ``chunkSize`` bytes or so.
    public nonisolated func print(_ job: EscPosEncoder) -> PrintOperation {
        print(job.bytes, commandEnds: job.commandEnds)
    }

    /// Prints ESC/POS bytes whose command boundaries are unknown: the status is read before
    /// and after them, never in between.
    public nonisolated func print(_ job: [UInt8]) -> PrintOperation {
        print(job, commandEnds: [job.count])
    }

    private nonisolated func print(_ job: [UInt8], commandEnds: [Int]) -> PrintOperation {
        let (progress, sink) = AsyncStream.makeStream(of: PrintProgress.self)
        let pieces = Self.pieces(of: job.count, commandEnds: commandEnds, size: chunkSize)
        // Unstructured: the job runs while the caller watches `progress`; `result()` awaits it.
        let task = Task {
            let report = await self.run(job, pieces: pieces) { sink.yield($0) }
            sink.yield(report.error.map(PrintProgress.failed) ?? .finished)
            sink.finish()
            return report
        }
        return PrintOperation(progress: progress, task: task)
    }

    /// The printer's status, from `DLE EOT 1`, `2` and `4` (and `3` when it reports an error).
    ///
    /// - Throws: ``MPOSError/printerUnreachable``, ``MPOSError/printerNotResponding``.
    public func status() async throws(MPOSError) -> PrinterStatus {
        try await withLink { link throws(MPOSError) in try await link.fullStatus() }
    }

    /// Pulses the drawer kick-out connector's `pin` (`ESC p`), then reads the drawer sensor.
    ///
    /// - Returns: the status after the kick; its ``PrinterStatus/drawerOpen`` says whether
    ///   the drawer reads open (for the drawer's switch as ``PrinterStatus/drawerOpensHigh``
    ///   assumes).
    /// - Throws: what ``status()`` throws, and the condition's error when the printer is not
    ///   ready (a printer that is offline does not execute `ESC p`).
    @discardableResult
    public func openCashDrawer(pin: EscPosEncoder.DrawerPin = .pin2) async throws(MPOSError) -> PrinterStatus
    {
        try await withLink { link throws(MPOSError) in
            guard link.answersStatus else {
                try await link.send(EscPosEncoder.drawerKick(pin))
                return PrinterStatus()
            }
            let before = try await link.fullStatus()
            if let problem = before.problem { throw problem }
            try await link.send(EscPosEncoder.drawerKick(pin))
            var after = before
            try await link.query(.printer, into: &after)
            return after
        }
    }

    /// Whether the cash drawer reads open (`DLE EOT 1`, bit 2).
    ///
    /// - Throws: ``MPOSError/printerUnreachable``, ``MPOSError/printerNotResponding``.
    public func drawerIsOpen() async throws(MPOSError) -> Bool {
        try await withLink { link throws(MPOSError) in
            var status = PrinterStatus()
            try await link.query(.printer, into: &status)
            return status.drawerOpen
        }
    }

    /// Runs `body` on a new link and closes it before returning: a network printer serves
    /// one connection at a time, so the next job waits until this one is closed.
    private func withLink<Value>(_ body: (PrinterLink) async throws(MPOSError) -> Value)
        async throws(MPOSError)
        -> Value
    {
        let link = try await open()
        do {
            let value = try await body(link)
            await close(link)
            return value
        } catch {
            await close(link)
            throw error
        }
    }

    /// Waits until no other job or drawer command holds the printer, then holds it.
    private func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Hands the printer to the next waiter, or frees it.
    private func release() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }

    /// Holds the printer, then opens a link to it; `close(_:)` undoes both.
    private func open() async throws(MPOSError) -> PrinterLink {
        await acquire()
        do {
            return PrinterLink(try await connector(), clock: clock, timeout: statusTimeout)
        } catch let error as MPOSError {
            release()
            throw error
        } catch {
            release()
            throw MPOSError.printerUnreachable.withMessage("The printer could not be reached: \(error).")
        }
    }

    private func close(_ link: PrinterLink) async {
        await link.close()
        release()
    }

    /// The ends of the pieces a job goes out in: each the last command end within `size`
    /// bytes of the previous one (or the next, for a longer command), the last the job's end.
    static func pieces(of count: Int, commandEnds: [Int], size: Int) -> [Int] {
        let ends = Set(commandEnds.filter { $0 > 0 && $0 < count }).sorted() + [count]
        var pieces: [Int] = []
        var start = 0
        var index = 0
        while start < count {
            var end = ends[index]
            while index + 1 < ends.count, ends[index + 1] - start <= size {
                index += 1
                end = ends[index]
            }
            pieces.append(end)
            start = end
            index += 1
        }
        return pieces
    }

    private func run(_ job: [UInt8], pieces: [Int], progress: (PrintProgress) -> Void) async -> PrintReport {
        var report = PrintReport(bytesTotal: job.count, bytesSent: 0, status: nil, error: nil)
        progress(.connecting)
        let link: PrinterLink
        do { link = try await open() } catch {
            report.error = error
            return report
        }
        do throws(MPOSError) {
            if link.answersStatus {
                progress(.checkingStatus)
                report.status = try await link.fullStatus()
                if let problem = report.status?.problem { throw problem }
            }
            progress(.printing(bytesSent: 0, bytesTotal: job.count))
            var start = 0
            for end in pieces {
                try await link.send(Array(job[start..<end]))
                if link.answersStatus {
                    var status = report.status ?? PrinterStatus()
                    try await link.query(.printer, into: &status)
                    if status.offline { status = try await link.fullStatus() }
                    report.status = status
                    if let problem = status.problem { throw problem }
                }
                report.bytesSent = end
                progress(.printing(bytesSent: end, bytesTotal: job.count))
                start = end
            }
            if link.answersStatus {
                progress(.confirming)
                report.status = try await link.fullStatus()
                if let problem = report.status?.problem { throw problem }
            }
        } catch {
            report.error = error.withMessage(
                error.message + " Stopped after \(report.bytesSent) of \(job.count) bytes.")
        }
        await close(link)
        return report
    }
}

/// One open connection and its answers.
struct PrinterLink: Sendable {
    let connection: any PrinterConnection
    let answers: PrinterAnswers
    let clock: any Clock<Duration>
    let timeout: Duration

    init(_ connection: any PrinterConnection, clock: any Clock<Duration>, timeout: Duration) {
        self.connection = connection
        self.answers = PrinterAnswers(connection.incoming)
        self.clock = clock
        self.timeout = timeout
    }

    var answersStatus: Bool { connection.answersStatus }

    func send(_ bytes: [UInt8]) async throws(MPOSError) { try await connection.send(bytes) }

    /// Asks one `DLE EOT n` and reads its answer into `status`.
    func query(_ request: PrinterStatus.Request, into status: inout PrinterStatus) async throws(MPOSError) {
        answers.discardPending()
        try await connection.send(EscPosEncoder.statusRequest(request))
        guard let answer = await answers.next(within: timeout, on: clock) else {
            throw MPOSError.printerNotResponding.withMessage(
                "The printer did not answer DLE EOT \(request.rawValue) within \(timeout).")
        }
        do { try status.update(with: answer, for: request) } catch {
            throw MPOSError.printerNotResponding.withMessage(
                "The printer's answer to DLE EOT \(request.rawValue) is not a status byte.")
        }
    }

    /// All four requests; the error cause only when the printer reports an error.
    func fullStatus() async throws(MPOSError) -> PrinterStatus {
        var status = PrinterStatus()
        try await query(.printer, into: &status)
        try await query(.offlineCause, into: &status)
        if status.errorOccurred { try await query(.errorCause, into: &status) }
        try await query(.paperSensor, into: &status)
        return status
    }

    func close() async {
        answers.stop()
        await connection.close()
    }
}
