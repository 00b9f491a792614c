import Foundation
import MPOSCore
import Synchronization
import Testing

@testable import ReaderLink

/// A reader that produced several events at once hands them to the transport in one write
/// (on a link without a write limit), so the SDK reads and wakes once for the burst; the
/// SDK still gets every event, in order. On a link with a write limit (BLE) each frame is
/// fragmented as usual.
@Suite(.timeLimit(.minutes(2))) struct EventBatchTests {
    /// Counts the writes that cross from the reader to the SDK, passing the bytes on.
    final class WriteCounter: Sendable {
        private let writes = Mutex(0)
        func count() { writes.withLock { $0 += 1 } }
        var total: Int { writes.withLock { $0 } }
    }

    /// A paired link whose reader-to-SDK writes are counted on the way.
    static func countedLink(mtu: Int?) async throws -> (ReaderConnection, ReaderDeviceSession, WriteCounter, [Task<Void, Never>]) {
        let (sdkSide, sdkPeer) = InProcessTransport.makePair(maximumWriteLength: mtu)
        let (readerSide, readerPeer) = InProcessTransport.makePair(maximumWriteLength: mtu)
        let counter = WriteCounter()
        let toSDK = Task {
            for await chunk in readerPeer.incoming {
                counter.count()
                try? sdkPeer.send(chunk)
            }
            await sdkPeer.close()
        }
        let toReader = Task {
            for await chunk in sdkPeer.incoming { try? readerPeer.send(chunk) }
            await readerPeer.close()
        }
        let reader = Task { try await ReaderDeviceSession.accept(transport: readerSide, secret: secretA) }
        let sdk = try await ReaderConnection.open(transport: sdkSide, secret: secretA)
        return (sdk, try await reader.value, counter, [toSDK, toReader])
    }

    static let burst: [ReaderMessage] = [
        .statusReport(StatusReport(status: .cardInserted, message: "Card read", cancelAllowed: true, transactionID: "t1")),
        .pinEntryProgress(PINEntryProgress(digitsEntered: 1, attemptsLeft: 3)),
        .pinEntryProgress(PINEntryProgress(digitsEntered: 2, attemptsLeft: 3)),
        .statusReport(StatusReport(status: .pinInputCompleted, message: "PIN entered", cancelAllowed: false, transactionID: "t1")),
        .statusReport(StatusReport(status: .waitingHostSend, message: "Authorizing", cancelAllowed: false, transactionID: "t1")),
    ]

    static func receive(_ count: Int, from sdk: ReaderConnection) async -> [ReaderMessage] {
        var received: [ReaderMessage] = []
        for await event in sdk.events {
            received.append(event)
            if received.count == count { break }
        }
        return received
    }

    @Test func aBurstOfEventsCrossesASocketLikeLinkInOneWriteAndInOrder() async throws {
        let (sdk, reader, counter, relays) = try await Self.countedLink(mtu: nil)
        let before = counter.total
        try await reader.emit(Self.burst)
        let received = await Self.receive(Self.burst.count, from: sdk)
        #expect(received == Self.burst)
        #expect(counter.total - before == 1)
        await sdk.close()
        await reader.close()
        for relay in relays { await relay.value }
    }

    @Test func onALinkWithAWriteLimitEachFrameIsStillFragmentedToFit() async throws {
        let (sdk, reader, counter, relays) = try await Self.countedLink(mtu: 20)
        let before = counter.total
        try await reader.emit(Self.burst)
        let received = await Self.receive(Self.burst.count, from: sdk)
        #expect(received == Self.burst)
        // Every write fits the limit (InProcessTransport throws otherwise), so a burst of five
        // secured frames takes many.
        #expect(counter.total - before > Self.burst.count)
        await sdk.close()
        await reader.close()
        for relay in relays { await relay.value }
    }

    @Test func aBatchAfterTheLinkClosedFails() async throws {
        let (sdk, reader) = try await makeLink()
        await sdk.close()
        await reader.close()
        await #expect(throws: ReaderLinkError.self) { try await reader.emit(Self.burst) }
    }
}
