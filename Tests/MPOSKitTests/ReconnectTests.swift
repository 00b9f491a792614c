import Foundation
import MPOSCore
import MPOSTestSupport
import ReaderLink
import ReaderLinkTCP
import Testing

@testable import MPOSKit

/// Automatic reconnection to the TCP reader emulator, with the backoff on a manual clock.
@Suite(.serialized, .timeLimit(.minutes(1))) struct ReconnectTests {
    @Test func theBackoffDoublesUpToItsCap() {
        let policy = ReconnectPolicy.standard
        let delays = (0..<8).map { policy.delay(beforeAttempt: $0) }
        #expect(delays == [
            .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(30),
            .seconds(30),
        ])
        #expect(ReconnectPolicy(initialDelay: .seconds(5), maximumDelay: .seconds(1), maximumAttempts: 0).maximumAttempts == 1)
    }

    @Test func aDroppedLinkIsReopenedAfterTheFirstDelayAndTakesPaymentsAgain() async throws {
        let sandbox = try await Sandbox()
        let clock = ManualClock()
        let terminal = try await sandbox.terminal(clock: clock, connect: false)
        let connection = terminal.events.subscribe([.connection])
        var changes = connection.makeAsyncIterator()
        let links = Locked<[TCPTransport]>([])
        let port = sandbox.server.port
        try await terminal.reader.connect(secret: Sandbox.secret) {
            let link = try await TCPTransport.connect(host: "127.0.0.1", port: port)
            links.withLock { $0.append(link) }
            return link
        }
        #expect(await Self.next(&changes) == true)

        await links.withLock { $0[0] }.close()  // the link drops
        #expect(await Self.next(&changes) == false)
        await clock.waitForSleeper(until: .milliseconds(500))
        #expect(links.withLock { $0.count } == 1)  // nothing before the delay
        clock.advance(by: .milliseconds(500))
        #expect(await Self.next(&changes) == true)
        #expect(links.withLock { $0.count } == 2)

        let result = try await terminal.sale(PaymentParameters(amount: 12_36, currency: .eur))
        #expect(result.status == .approved)
        try await sandbox.close(terminal)
    }

    @Test func reconnectionBacksOffGivesUpAndStopsOnDisconnect() async throws {
        let sandbox = try await Sandbox()
        let clock = ManualClock()
        let terminal = try await sandbox.terminal(clock: clock, connect: false)
        let connection = terminal.events.subscribe([.connection])
        var changes = connection.makeAsyncIterator()
        let opens = Locked(0)
        let first = Locked<TCPTransport?>(nil)
        let port = sandbox.server.port
        let policy = ReconnectPolicy(initialDelay: .seconds(1), maximumDelay: .seconds(3), maximumAttempts: 3)
        try await terminal.reader.connect(
            secret: Sandbox.secret, reconnect: policy, open: Self.reachableOnce(port: port, opens: opens, first: first))
        #expect(await Self.next(&changes) == true)
        await first.withLock { $0 }?.close()
        #expect(await Self.next(&changes) == false)

        // Attempts after 1 s, then 2 s more, then 3 s more (capped); then it gives up.
        for (deadline, opened) in [(Duration.seconds(1), 2), (.seconds(3), 3), (.seconds(6), 4)] {
            await clock.waitForSleeper(until: deadline)
            clock.advance(by: deadline - clock.now.offset)
            while opens.withLock({ $0 }) < opened { await Task.yield() }
        }
        clock.advance(by: .seconds(60))
        #expect(opens.withLock { $0 } == 4)
        await #expect(throws: MPOSError.self) { try await terminal.reader.info() }
        // Giving up ends `connecting`: the terminal says it is not connected.
        #expect(await Self.next(&changes) == false)
        #expect(await terminal.reader.connectionState == .notConnected)

        // disconnect() ends a reconnection that is still waiting.
        opens.withLock { $0 = 0 }
        try await terminal.reader.connect(
            secret: Sandbox.secret, reconnect: policy, open: Self.reachableOnce(port: port, opens: opens, first: first))
        #expect(await Self.next(&changes) == true)
        await first.withLock { $0 }?.close()
        #expect(await Self.next(&changes) == false)
        let start = clock.now.offset
        await clock.waitForSleeper(until: start + .seconds(1))
        await terminal.disconnect()
        clock.advance(by: .seconds(60))
        for _ in 0..<100 { await Task.yield() }
        #expect(opens.withLock { $0 } == 1)
        try await sandbox.close(terminal)
    }

    /// A factory whose first call connects (keeping the link in `first`) and whose later
    /// calls fail, as a reader that stays away; `opens` counts the calls.
    static func reachableOnce(port: Int, opens: Locked<Int>, first: Locked<TCPTransport?>) -> ReaderTransportFactory {
        {
            let count = opens.withLock { $0 += 1; return $0 }
            guard count == 1 else { throw ReaderLinkError.linkClosed }
            let link = try await TCPTransport.connect(host: "127.0.0.1", port: port)
            first.withLock { $0 = link }
            return link
        }
    }

    /// The next connection change: true for connected, false for disconnected (the
    /// `connecting` announcements in between are skipped; ``ReaderConnectionStateTests`` reads them).
    static func next(_ changes: inout AsyncStream<TerminalEvent>.Iterator) async -> Bool? {
        while let event = await changes.next() {
            switch event {
            case .readerConnection(let connected, _): return connected
            case .readerConnecting: continue
            default: return nil
            }
        }
        return nil
    }
}
