import ArgumentParser
import ReaderLink
import Synchronization

/// `mpos reader scan --reader HOST:PORT [--secret HEX] [--multi] [--timeout S] [--count N] [--json]`
struct ReaderScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Turn the reader's barcode scanner on and print the codes it reads.",
        discussion: """
            Prints each code as 'SYMBOLOGY CODE' (with --json, one object per line with barcode and \
            symbology). Ends after one code, or with --multi after --count codes; with --timeout, \
            after that many seconds without a code (exit 1 when none came at all); Ctrl-C ends it too. \
            The scanner is turned off before the command exits.
            """
    )

    @OptionGroup var link: ReaderLinkOptions

    @Flag(help: "Keep scanning after the first code.")
    var multi = false

    @Option(help: "Seconds without a code before scanning stops, 0 to 65535; 0 waits for --count or Ctrl-C.")
    var timeout: Int = 0

    @Option(help: "With --multi, stop after this many codes.")
    var count: Int?

    @Flag(help: "Print one JSON object per code instead of text.")
    var json = false

    /// How the wait for codes ended.
    enum End: Sendable {
        case counted, timedOut, interrupted, linkClosed
    }

    func run() async throws {
        guard (0...Int(UInt16.max)).contains(timeout) else {
            throw CLIFailure("--timeout must be 0 to 65535 seconds, not \(timeout)")
        }
        if let count {
            guard multi else { throw CLIFailure("--count needs --multi: a single scan ends after one code") }
            guard count >= 1 else { throw CLIFailure("--count must be 1 or more, not \(count)") }
        }
        let (interrupts, interrupted) = AsyncStream<Void>.makeStream()
        let interrupt = InterruptToCancel { interrupted.yield() }
        defer { interrupt.remove() }
        let configuration = ScannerConfiguration(
            multiScan: multi, buttonMode: true, timeoutSeconds: UInt16(timeout))
        let (codes, end) = try await link.withConnection(timeout: .seconds(15)) { connection in
            try await link.askForAck(connection, .enableScanner(configuration), "the scanner request")
            let outcome = await collect(connection.events, wanted: multi ? count : 1, interrupts: interrupts)
            if outcome.end != .linkClosed {
                try await link.askForAck(connection, .disableScanner, "the request to turn the scanner off")
            }
            return outcome
        }
        switch end {
        case .counted: return
        case .timedOut where codes == 0: throw CLIFailure("no code scanned within \(timeout) s")
        case .interrupted where codes == 0: throw CLIFailure("interrupted: no code scanned")
        case .timedOut, .interrupted: return
        case .linkClosed:
            throw CLIFailure("the reader at \(link.reader) closed the link after \(codes) code(s)")
        }
    }

    /// Prints the codes in `events` until `wanted` came (nil: no limit), `timeout` seconds pass
    /// without one (0: never), an interrupt arrives, or the link closes.
    private func collect(_ events: AsyncStream<ReaderMessage>, wanted: Int?, interrupts: AsyncStream<Void>)
        async
        -> (codes: Int, end: End)
    {
        let progress = Progress()
        let inactivity = Duration.seconds(timeout)
        let json = json
        let end = await withTaskGroup(of: End.self) { group in
            group.addTask {
                for await case .scan(let scan) in events {
                    CLIOutput.line(json ? Self.json(scan) : "\(scan.symbology) \(scan.barcode)")
                    let codes = progress.state.withLock { progress in
                        progress = (progress.codes + 1, ContinuousClock.now)
                        return progress.codes
                    }
                    if let wanted, codes >= wanted { return .counted }
                }
                return Task.isCancelled ? .interrupted : .linkClosed
            }
            if timeout > 0 {
                group.addTask {
                    while true {
                        let deadline = progress.state.withLock { $0.lastCode } + inactivity
                        if ContinuousClock.now >= deadline { return .timedOut }
                        do { try await Task.sleep(until: deadline, clock: .continuous) } catch {
                            return .interrupted
                        }
                    }
                }
            }
            group.addTask {
                for await _ in interrupts { break }
                return .interrupted
            }
            let first = await group.next() ?? .interrupted
            group.cancelAll()
            return first
        }
        return (progress.state.withLock { $0.codes }, end)
    }

    /// The codes printed so far and when the last one came (the inactivity timeout's start).
    private final class Progress: Sendable {
        let state = Mutex((codes: 0, lastCode: ContinuousClock.now))
    }

    /// `{"barcode":…,"symbology":…}`, the keys sorted like every `--json` output.
    static func json(_ scan: ScanEvent) -> String {
        "{\"barcode\":\(jsonString(scan.barcode)),\"symbology\":\(jsonString(scan.symbology))}"
    }
}
