import ReaderLink
import Synchronization

/// One scan for readers: every scanner at once, for a scan time on a clock, each reader
/// reported once (by ``DiscoveredReader/id``) in the order it answered.
///
/// ``CardReaderLink/discover(scanners:scanTime:)`` runs one on the terminal's clock
/// and turns what it finds into events; use it directly where there is no terminal (a
/// setup screen, a command-line tool).
///
/// ```swift
/// let scan = ReaderDiscovery(scanners: [TCPReaderScanner()], scanTime: .seconds(3))
/// for await reader in scan.readers() { print(reader.name, reader.address ?? "") }
/// ```
public struct ReaderDiscovery: Sendable {
    /// The scanners that run.
    public let scanners: [any ReaderScanner]
    /// How long the scan lasts.
    public let scanTime: Duration
    private let clock: any Clock<Duration>

    /// A scan, not yet started.
    ///
    /// - Parameters:
    ///   - scanTime: 5 s by default; the scan ends when this much time has passed on `clock`.
    ///   - clock: the clock the scan time runs on (a manual clock in tests).
    public init(
        scanners: [any ReaderScanner], scanTime: Duration = .seconds(5),
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.scanners = scanners
        self.scanTime = scanTime
        self.clock = clock
    }

    /// Starts the scan: new readers as they are found. The stream finishes at the scan time;
    /// stopping early (cancelling the consuming task) stops the scanners too.
    public func readers() -> AsyncStream<DiscoveredReader> {
        let (stream, sink) = AsyncStream.makeStream(of: DiscoveredReader.self)
        let (scanners, scanTime, clock) = (self.scanners, self.scanTime, self.clock)
        let seen = SeenReaders()
        // Unstructured: the scan feeds the returned stream after this function returns; the stream's end cancels it.
        let work = Task {
            await withTaskGroup(of: Void.self) { group in
                for scanner in scanners {
                    group.addTask {
                        for await reader in scanner.scan() where seen.isNew(reader) { sink.yield(reader) }
                    }
                }
                // Cancelled, the scan ends early with what was found, as documented.
                try? await clock.sleep(for: scanTime)
                group.cancelAll()
            }
            sink.finish()
        }
        sink.onTermination = { _ in work.cancel() }
        return stream
    }
}

/// The ids a scan has reported, shared by its scanners.
private final class SeenReaders: Sendable {
    private let ids = Mutex<Set<String>>([])

    /// True the first time a reader's id is seen.
    func isNew(_ reader: DiscoveredReader) -> Bool {
        ids.withLock { $0.insert(reader.id).inserted }
    }
}
