import ReaderLink

/// Finds simulated readers running in the app's own process, for development without hardware
/// and for tests: each reader is found at once, and opening it connects an in-process link
/// that the reader serves.
///
/// Like a radio scan, the scan keeps going (finding nothing more) until its consumer stops it.
///
/// ```swift
/// let reader = SimulatedReader(configuration: SimulatedReaderConfiguration(secret: secret))
/// let found = await terminal.discoverReaders(scanners: [SimulatedReaderScanner(readers: [reader])])
/// try await terminal.connectReader(found[0], secret: secret)
/// ```
public struct SimulatedReaderScanner: ReaderScanner {
    private let readers: [SimulatedReader]

    /// A scanner that finds `readers`.
    public init(readers: [SimulatedReader]) {
        self.readers = readers
    }

    /// Yields every reader at once and stays open until the consumer stops.
    public func scan() -> AsyncStream<DiscoveredReader> {
        let (stream, continuation) = AsyncStream.makeStream(of: DiscoveredReader.self)
        for reader in readers { continuation.yield(reader.discovered) }
        // Holding the continuation until the consumer stops keeps the stream open.
        continuation.onTermination = { _ in _ = continuation }
        return stream
    }
}

extension SimulatedReader {
    /// This reader as discovery reports it; each `open` starts serving a new in-process link.
    public nonisolated var discovered: DiscoveredReader {
        DiscoveredReader(announcement: announcement, transportKind: .simulated) { [self] in
            let (sdkEnd, readerEnd) = InProcessTransport.makePair()
            // Unstructured: the reader serves the link until it closes, long after `open` returns.
            Task { await self.serve(readerEnd) }
            return sdkEnd
        }
    }
}
