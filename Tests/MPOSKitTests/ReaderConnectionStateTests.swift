import Foundation
import MPOSCore
import MPOSTestSupport
import ReaderLink
import ReaderLinkTCP
import Testing

@testable import MPOSKit

/// The ECP seed's three connection states (not connected, connecting, connected), as
/// `terminal.reader.connectionState` and as events, for a connect the app calls and for a
/// reconnection after a drop.
@Suite(.serialized, .timeLimit(.minutes(1))) struct ReaderConnectionStateTests {
    /// The connection events of `stream` until `count` have arrived.
    static func take(_ count: Int, from changes: inout AsyncStream<TerminalEvent>.Iterator) async -> [TerminalEvent] {
        var events: [TerminalEvent] = []
        while events.count < count, let event = await changes.next() {
            if case .readerConnection(let connected, _) = event {
                events.append(.readerConnection(connected: connected, info: nil))
            } else {
                events.append(event)
            }
        }
        return events
    }

    @Test func aConnectIsConnectingUntilTheLinkIsPaired() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal(connect: false)
        #expect(await terminal.reader.connectionState == .notConnected)
        var changes = terminal.events.subscribe([.connection]).makeAsyncIterator()
        let (opening, release) = AsyncStream.makeStream(of: Void.self)
        let (asked, askedContinuation) = AsyncStream.makeStream(of: Void.self)
        let port = sandbox.server.port
        let connect = Task {
            try await terminal.reader.connect(secret: Sandbox.secret, reconnect: nil) {
                askedContinuation.yield()
                for await _ in opening { break }  // held open until the test lets it go on
                return try await TCPTransport.connect(host: "127.0.0.1", port: port)
            }
        }
        for await _ in asked { break }
        #expect(await terminal.reader.connectionState == .connecting)
        release.yield()
        try await connect.value
        #expect(await terminal.reader.connectionState == .connected)
        #expect(
            await Self.take(2, from: &changes) == [
                .readerConnecting(attempt: 0), .readerConnection(connected: true, info: nil),
            ])
        try await sandbox.close(terminal)
    }

    @Test func aConnectThatFailsEndsNotConnected() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal(connect: false)
        var changes = terminal.events.subscribe([.connection]).makeAsyncIterator()
        await #expect(throws: MPOSError.self) {
            try await terminal.reader.connect(secret: Sandbox.secret, reconnect: nil) {
                throw ReaderLinkError.linkClosed
            }
        }
        #expect(await terminal.reader.connectionState == .notConnected)
        #expect(
            await Self.take(2, from: &changes) == [
                .readerConnecting(attempt: 0), .readerConnection(connected: false, info: nil),
            ])
        try await sandbox.close(terminal)
    }

    @Test func aReconnectionIsConnectingBetweenAndDuringItsAttempts() async throws {
        let sandbox = try await Sandbox()
        let clock = ManualClock()
        let terminal = try await sandbox.terminal(clock: clock, connect: false)
        var changes = terminal.events.subscribe([.connection]).makeAsyncIterator()
        let links = Locked<[TCPTransport]>([])
        let port = sandbox.server.port
        try await terminal.reader.connect(secret: Sandbox.secret) {
            let link = try await TCPTransport.connect(host: "127.0.0.1", port: port)
            links.withLock { $0.append(link) }
            return link
        }
        #expect(await Self.take(2, from: &changes).last == .readerConnection(connected: true, info: nil))

        await links.withLock { $0[0] }.close()  // the link drops
        #expect(await Self.take(1, from: &changes) == [.readerConnection(connected: false, info: nil)])
        await clock.waitForSleeper(until: .milliseconds(500))
        // Waiting for the first attempt is connecting already.
        #expect(await terminal.reader.connectionState == .connecting)
        clock.advance(by: .milliseconds(500))
        #expect(
            await Self.take(2, from: &changes) == [
                .readerConnecting(attempt: 1), .readerConnection(connected: true, info: nil),
            ])
        #expect(await terminal.reader.connectionState == .connected)
        try await sandbox.close(terminal)
    }

    @Test func disconnectingDuringAReconnectionEndsNotConnected() async throws {
        let sandbox = try await Sandbox()
        let clock = ManualClock()
        let terminal = try await sandbox.terminal(clock: clock, connect: false)
        var changes = terminal.events.subscribe([.connection]).makeAsyncIterator()
        let first = Locked<TCPTransport?>(nil)
        let opens = Locked(0)
        try await terminal.reader.connect(
            secret: Sandbox.secret,
            open: ReconnectTests.reachableOnce(port: sandbox.server.port, opens: opens, first: first))
        _ = await Self.take(2, from: &changes)
        await first.withLock { $0 }?.close()
        #expect(await Self.take(1, from: &changes) == [.readerConnection(connected: false, info: nil)])
        await clock.waitForSleeper(until: .milliseconds(500))
        #expect(await terminal.reader.connectionState == .connecting)
        await terminal.disconnect()
        #expect(await terminal.reader.connectionState == .notConnected)
        #expect(await Self.take(1, from: &changes) == [.readerConnection(connected: false, info: nil)])
        try await sandbox.close(terminal)
    }
}
