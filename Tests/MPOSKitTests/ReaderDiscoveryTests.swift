import Foundation
import MPOSCore
import MPOSTestSupport
import ReaderLink
import ReaderLinkTCP
import ReaderSimulator
import Testing

@testable import MPOSKit

/// Reader discovery and connecting to what it found: scan time and connect timeout on a
/// manual clock, the simulated scanner in process, and the UDP scanner over loopback.
@Suite(.serialized, .timeLimit(.minutes(1))) struct ReaderDiscoveryTests {
    /// A scanner the test feeds by hand; it counts scans that are still running.
    final class HandScanner: ReaderScanner {
        private let state = Locked<(sinks: [AsyncStream<DiscoveredReader>.Continuation], running: Int)>(
            ([], 0))

        func scan() -> AsyncStream<DiscoveredReader> {
            let (stream, sink) = AsyncStream.makeStream(of: DiscoveredReader.self)
            state.withLock {
                $0.sinks.append(sink)
                $0.running += 1
            }
            sink.onTermination = { [state] _ in state.withLock { $0.running -= 1 } }
            return stream
        }

        var running: Int { state.withLock { $0.running } }

        func find(_ reader: DiscoveredReader) {
            for sink in state.withLock({ $0.sinks }) { sink.yield(reader) }
        }

        func waitUntilScanning() async {
            while running == 0 { await Task.yield() }
        }
    }

    static func reader(_ serial: String, kind: ReaderTransportKind = .tcp) -> DiscoveredReader {
        DiscoveredReader(
            announcement: ReaderAnnouncement(name: "Reader \(serial)", serialNumber: serial, model: "R1"),
            transportKind: kind, address: nil
        ) { throw ReaderLinkError.linkClosed }
    }

    /// A terminal with no gateway behind it: discovery and pairing need none.
    static func offlineTerminal(clock: ManualClock) throws -> (PaymentTerminal, URL) {
        let journal = FileManager.default.temporaryDirectory.appendingPathComponent(
            "discovery-\(UUID().uuidString).sqlite")
        let terminal = try PaymentTerminal(
            environment: URL(string: "http://127.0.0.1:9")!, credentials: .login(user: "u", password: "p"),
            journalPath: journal.path, clock: clock)
        return (terminal, journal)
    }

    /// Yields a while, so that anything not waiting on the clock gets to run.
    static func settle() async {
        for _ in 0..<200 { await Task.yield() }
    }

    @Test func theScanEndsAtItsScanTimeOnTheClockWithEachReaderOnce() async throws {
        let clock = ManualClock()
        let (terminal, journal) = try Self.offlineTerminal(clock: clock)
        defer { try? FileManager.default.removeItem(at: journal) }
        var events = terminal.events.subscribe([.discovery]).makeAsyncIterator()
        let first = HandScanner(), second = HandScanner()
        let done = Locked(false)
        let scan = Task {
            let readers = await terminal.reader.discover(scanners: [first, second])
            done.withLock { $0 = true }
            return readers
        }
        await first.waitUntilScanning()
        await second.waitUntilScanning()
        await clock.waitForSleeper(until: .seconds(5))
        first.find(Self.reader("A"))
        #expect(await events.next() == .readerDiscovered(Self.reader("A")))  // reported as found
        clock.advance(by: .seconds(2))
        second.find(Self.reader("A"))  // the same reader through another scanner: not again
        second.find(Self.reader("B"))
        #expect(await events.next() == .readerDiscovered(Self.reader("B")))
        first.find(Self.reader("A", kind: .simulated))  // another transport: another reader
        #expect(await events.next() == .readerDiscovered(Self.reader("A", kind: .simulated)))
        clock.advance(by: .milliseconds(2_999))
        await Self.settle()
        #expect(!done.withLock { $0 })
        #expect(first.running == 1 && second.running == 1)

        clock.advance(by: .milliseconds(1))
        let readers = await scan.value
        #expect(clock.now.offset == .seconds(5))
        #expect(readers.map(\.id) == ["tcp:A", "tcp:B", "simulated:A"])
        #expect(await events.next() == .discoveryFinished(readers: 3))
        while first.running + second.running > 0 { await Task.yield() }  // the scanners were stopped
    }

    @Test func aZeroScanTimeScansForTheDefaultFiveSeconds() async throws {
        let clock = ManualClock()
        let (terminal, journal) = try Self.offlineTerminal(clock: clock)
        defer { try? FileManager.default.removeItem(at: journal) }
        let scanner = HandScanner()
        let done = Locked(false)
        let scan = Task {
            let readers = await terminal.reader.discover(scanners: [scanner], scanTime: .zero)
            done.withLock { $0 = true }
            return readers
        }
        await scanner.waitUntilScanning()
        await clock.waitForSleeper(until: .seconds(5))
        scanner.find(Self.reader("Z"))
        clock.advance(by: .milliseconds(4_999))
        await Self.settle()
        #expect(!done.withLock { $0 })
        clock.advance(by: .milliseconds(1))
        #expect(await scan.value.map(\.id) == ["tcp:Z"])
        #expect(clock.now.offset == .seconds(5))
    }

    @Test func aZeroConnectTimeoutIsTheDefaultFifteenSeconds() async throws {
        let clock = ManualClock()
        let (terminal, journal) = try Self.offlineTerminal(clock: clock)
        defer { try? FileManager.default.removeItem(at: journal) }
        let silent = DiscoveredReader(
            announcement: ReaderAnnouncement(name: "Mute", serialNumber: "M2", model: "R1"),
            transportKind: .simulated
        ) { InProcessTransport.makePair().0 }
        try await Self.expectConnectTimeout(terminal, silent, clock, timers: 2, timeout: .zero)
    }

    @Test func aReaderThatNeverPairsTimesOutAtFifteenSecondsNotBefore() async throws {
        let clock = ManualClock()
        let (terminal, journal) = try Self.offlineTerminal(clock: clock)
        defer { try? FileManager.default.removeItem(at: journal) }
        let silent = DiscoveredReader(
            announcement: ReaderAnnouncement(name: "Mute", serialNumber: "M1", model: "R1"),
            transportKind: .simulated
        ) {
            // Nobody serves the other end: hello is never answered.
            InProcessTransport.makePair().0
        }
        try await Self.expectConnectTimeout(terminal, silent, clock, timers: 2)
    }

    @Test func aReaderThatDoesNotOpenInTimeTimesOutAtFifteenSecondsAndItsLateLinkIsClosed() async throws {
        let clock = ManualClock()
        let (terminal, journal) = try Self.offlineTerminal(clock: clock)
        defer { try? FileManager.default.removeItem(at: journal) }
        let (gate, release) = AsyncStream.makeStream(of: Void.self)
        let (late, readerEnd) = InProcessTransport.makePair()
        let slow = DiscoveredReader(
            announcement: ReaderAnnouncement(name: "Away", serialNumber: "A1", model: "R1"),
            transportKind: .tcp
        ) {
            for await _ in gate {}
            return late
        }
        try await Self.expectConnectTimeout(terminal, slow, clock, timers: 1)
        release.finish()
        for await _ in readerEnd.incoming {}  // ends only when the late link is closed
    }

    /// Connects to `reader` with the default timeout and checks it fails at 15 s exactly.
    /// `timers` is how many 15 s timers the attempt starts before it waits: the link's opening,
    /// and pairing's when the link opens. The clock moves only once the last is registered; it
    /// moved before pairing's timer at times, which then waited until 30 s and the test hung.
    static func expectConnectTimeout(
        _ terminal: PaymentTerminal, _ reader: DiscoveredReader, _ clock: ManualClock, timers: Int,
        timeout: Duration = CardReaderLink.defaultConnectTimeout
    )
        async throws
    {
        let outcome = Locked<MPOSError?>(nil)
        let connecting = Task {
            do { try await terminal.reader.connect(reader, secret: Sandbox.secret, timeout: timeout) } catch {
                outcome.withLock { $0 = error as? MPOSError }
            }
        }
        await clock.waitForSleeper(until: .seconds(15), startedAfter: timers - 1)
        clock.advance(by: .milliseconds(14_999))
        await Self.settle()
        #expect(outcome.withLock { $0 } == nil)
        clock.advance(by: .milliseconds(1))
        await connecting.value
        let error = try #require(outcome.withLock { $0 })
        #expect(error.code == MPOSError.Code.readerConnectTimeout)
        await #expect(throws: MPOSError.readerNotConnected) { try await terminal.reader.info() }
    }

    @Test func aSimulatedReaderIsFoundInProcessAndTakesASale() async throws {
        let sandbox = try await Sandbox()
        let clock = ManualClock()
        let terminal = try await sandbox.terminal(clock: clock, connect: false)
        let scan = Task {
            await terminal.reader.discover(scanners: [SimulatedReaderScanner(readers: [sandbox.reader])])
        }
        await clock.waitForSleeper(until: .seconds(5))
        clock.advance(by: .seconds(5))
        let readers = await scan.value
        let found = try #require(readers.first)
        #expect(readers.count == 1 && found.id == "simulated:MPSIM-000001" && found.name == "Sandbox reader")

        try await terminal.reader.connect(found, secret: Sandbox.secret)
        #expect(try await terminal.reader.info().serialNumber == "MPSIM-000001")
        let result = try await terminal.sale(PaymentParameters(amount: 12_34, currency: .eur))
        #expect(result.status == .approved)
        try await sandbox.close(terminal)
    }

    @Test func aTCPReaderIsFoundOverUDPAndTakesASale() async throws {
        let sandbox = try await Sandbox()
        let responder = try await ReaderDiscoveryResponder.bind(
            host: "127.0.0.1", port: 0, announcement: sandbox.reader.announcement,
            tcpPort: sandbox.server.port)
        let clock = ManualClock()
        let terminal = try await sandbox.terminal(clock: clock, connect: false)
        let events = terminal.events.subscribe([.discovery])
        let scanner = TCPReaderScanner(targets: [
            DiscoveryProbeTarget(host: "127.0.0.1", port: responder.port)
        ])
        let scan = Task { await terminal.reader.discover(scanners: [scanner]) }
        var iterator = events.makeAsyncIterator()
        guard case .readerDiscovered(let announced)? = await iterator.next() else {
            Issue.record("no reader discovered")
            return
        }
        await clock.waitForSleeper(until: .seconds(5))
        clock.advance(by: .seconds(5))
        let readers = await scan.value
        #expect(readers == [announced])
        #expect(announced.id == "tcp:MPSIM-000001" && announced.address == "127.0.0.1:\(sandbox.server.port)")

        try await terminal.reader.connect(announced, secret: Sandbox.secret)
        let result = try await terminal.sale(PaymentParameters(amount: 7_00, currency: .eur))
        #expect(result.status == .approved && result.transactionID != nil)
        await responder.close()
        try await sandbox.close(terminal)
    }
}
