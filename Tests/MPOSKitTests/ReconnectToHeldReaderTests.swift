import Foundation
import MPOSCore
import MPOSTestSupport
import ReaderLink
import ReaderLinkTCP
import ReaderSimulator
import Testing

@testable import MPOSKit

/// Reconnection when the terminal's old link vanished without the reader noticing (no FIN):
/// the reader refuses the terminal while its old session may still be alive, and takes it once
/// that session has been silent past the idle limit.
@Suite(.serialized, .timeLimit(.minutes(1))) struct ReconnectToHeldReaderTests {
    /// A TCP link whose SDK end can vanish: the SDK sees it closed, while the socket stays open
    /// and the reader sees nothing, as when a network path dies silently.
    final class VanishingTransport: ReaderTransport, Sendable {
        let maximumWriteLength: Int? = nil
        let incoming: AsyncStream<[UInt8]>
        private let base: TCPTransport
        private let sink: AsyncStream<[UInt8]>.Continuation
        private let vanished = Locked(false)

        init(_ base: TCPTransport) {
            self.base = base
            (incoming, sink) = AsyncStream.makeStream(of: [UInt8].self)
            let sink = self.sink
            // Unstructured: forwards the socket's bytes until it closes or the link vanishes.
            Task {
                for await chunk in base.incoming { sink.yield(chunk) }
                sink.finish()
            }
        }

        func send(_ bytes: [UInt8]) throws(ReaderLinkError) {
            guard !vanished.withLock({ $0 }) else { throw .linkClosed }
            try base.send(bytes)
        }

        func close() async {
            sink.finish()
            if !vanished.withLock({ $0 }) { await base.close() }
        }

        /// Ends the link for the SDK only.
        func vanish() {
            vanished.withLock { $0 = true }
            sink.finish()
        }
    }

    /// The reader's log lines for pairings it admitted or refused.
    static func pairings(_ reader: SimulatedReader) async -> [String] {
        await reader.logLines.filter { $0.hasPrefix("refused ") || $0.hasPrefix("paired") }
    }

    @Test func aReconnectionMeetingItsVanishedLinkPairsOnceTheReaderDropsIt() async throws {
        let clock = ManualClock()
        let sandbox = try await Sandbox(readerClock: clock)
        let terminal = try await sandbox.terminal(clock: clock, connect: false)
        let connection = terminal.events.subscribe([.connection])
        var changes = connection.makeAsyncIterator()
        let links = Locked<[VanishingTransport]>([])
        let port = sandbox.server.port
        try await terminal.reader.connect(secret: Sandbox.secret) {
            let link = VanishingTransport(try await TCPTransport.connect(host: "127.0.0.1", port: port))
            links.withLock { $0.append(link) }
            return link
        }
        #expect(await ReconnectTests.next(&changes) == true)
        links.withLock { $0[0] }.vanish()
        #expect(await ReconnectTests.next(&changes) == false)

        // Attempts at 0.5, 1.5, 3.5, 7.5, 15.5 and 31.5 s find the reader held by the old link.
        var deadline = Duration.zero
        for attempt in 0..<6 {
            deadline += ReconnectPolicy.standard.delay(beforeAttempt: attempt)
            await clock.waitForSleeper(until: deadline)
            clock.advance(by: deadline - clock.now.offset)
            // Each attempt ends in the reader's log as a refusal or a pairing.
            while await Self.pairings(sandbox.reader).count < attempt + 2 { await Task.yield() }
            try #require(await Self.pairings(sandbox.reader).last?.hasPrefix("refused ") == true)
        }
        #expect(links.withLock { $0.count } == 7)
        await #expect(throws: MPOSError.readerNotConnected) { try await terminal.reader.info() }

        // At 61.5 s the old link has been silent past the idle limit: the reader drops it.
        deadline += ReconnectPolicy.standard.delay(beforeAttempt: 6)
        await clock.waitForSleeper(until: deadline)
        clock.advance(by: deadline - clock.now.offset)
        #expect(await ReconnectTests.next(&changes) == true)
        let result = try await terminal.sale(PaymentParameters(amount: 12_37, currency: .eur))
        #expect(result.status == .approved)
        try await sandbox.close(terminal)
    }
}
