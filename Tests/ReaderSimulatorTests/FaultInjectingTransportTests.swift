import Foundation
import MPOSTestSupport
import ReaderLink
import Testing

@testable import ReaderSimulator

/// The reader's fault wrapper: fault-free writes go straight through, a delay holds back what
/// follows it, and a dropped link refuses later writes.
@Suite(.timeLimit(.minutes(2))) struct FaultInjectingTransportTests {
    /// Reads what the peer received until `count` bytes arrived.
    private static func received(_ peer: InProcessTransport, count: Int) async -> [UInt8] {
        var bytes: [UInt8] = []
        for await chunk in peer.incoming {
            bytes += chunk
            if bytes.count >= count { break }
        }
        return bytes
    }

    @Test func writesWithoutFaultsArriveAtOnceAndInOrder() async throws {
        let (readerSide, peer) = InProcessTransport.makePair()
        let transport = FaultInjectingTransport(readerSide, plan: .none, clock: ManualClock()) {}
        for byte in UInt8(1)...5 { try transport.send([byte]) }
        #expect(transport.writeCount == 5)
        #expect(await Self.received(peer, count: 5) == [1, 2, 3, 4, 5])
    }

    @Test func aDelayedWriteHoldsBackTheWritesAfterIt() async throws {
        let clock = ManualClock()
        let (readerSide, peer) = InProcessTransport.makePair()
        let transport = FaultInjectingTransport(
            readerSide, plan: FaultPlan([.delay(atMessage: 2, by: .seconds(1)), .corruptFrame(atMessage: 4)]),
            clock: clock) {}
        // Writes are counted as they are handed over; none waits for the link.
        try transport.send([1])
        try transport.send([2])
        try transport.send([3])
        try transport.send([0x00, 0x00])
        #expect(transport.writeCount == 4)
        #expect(await Self.received(peer, count: 1) == [1])
        // Write 2 waits for the clock; 3 and 4, fault-free or not, wait behind it.
        while clock.sleeperCount == 0 { await Task.yield() }
        clock.advance(by: .seconds(1))
        #expect(await Self.received(peer, count: 4) == [2, 3, 0x00, 0x5A])
        // Nothing is held back any more: the next write arrives too.
        try transport.send([6])
        #expect(await Self.received(peer, count: 1) == [6])
    }

    @Test func aDroppedLinkRefusesTheWritesAfterIt() async throws {
        let (readerSide, peer) = InProcessTransport.makePair()
        let transport = FaultInjectingTransport(
            readerSide, plan: FaultPlan([.dropLink(atMessage: 2)]), clock: ManualClock()) {}
        try transport.send([1])
        try transport.send([2])
        var delivered: [UInt8] = []
        for await chunk in peer.incoming { delivered += chunk }
        #expect(delivered == [1])
        #expect(throws: ReaderLinkError.linkClosed) { try transport.send([3]) }
    }
}
