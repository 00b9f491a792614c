import Testing

@testable import MPOSKit

/// The terminal's event fan-out: every live subscriber gets what its filter accepts, in
/// order; a subscriber that stops listening is removed; `finishAll` ends every stream.
@Suite(.timeLimit(.minutes(2))) struct EventBroadcasterTests {
    /// Takes `count` elements from `stream`.
    private static func take(_ count: Int, from stream: AsyncStream<Int>) async -> [Int] {
        var taken: [Int] = []
        for await element in stream {
            taken.append(element)
            if taken.count == count { break }
        }
        return taken
    }

    @Test func eventsReachEveryLiveSubscriberInOrder() async {
        let broadcaster = EventBroadcaster<Int>()
        let first = broadcaster.subscribe()
        let second = broadcaster.subscribe()
        for value in 1...100 { broadcaster.yield(value) }
        #expect(await Self.take(100, from: first) == Array(1...100))
        #expect(await Self.take(100, from: second) == Array(1...100))
    }

    @Test func aSubscriberGetsOnlyWhatItsFilterAccepts() async {
        let broadcaster = EventBroadcaster<Int>()
        let evens = broadcaster.subscribe { $0.isMultiple(of: 2) }
        for value in 1...10 { broadcaster.yield(value) }
        #expect(await Self.take(5, from: evens) == [2, 4, 6, 8, 10])
    }

    @Test func aSubscriberGetsOnlyWhatIsYieldedAfterItSubscribed() async {
        let broadcaster = EventBroadcaster<Int>()
        broadcaster.yield(1)
        let late = broadcaster.subscribe()
        broadcaster.yield(2)
        #expect(await Self.take(1, from: late) == [2])
    }

    @Test func aSubscriberThatStopsListeningIsRemoved() async {
        let broadcaster = EventBroadcaster<Int>()
        let staying = broadcaster.subscribe()
        let leaving = broadcaster.subscribe()
        #expect(broadcaster.subscriberCount == 2)
        let listener = Task { await Self.take(1_000, from: leaving) }
        broadcaster.yield(1)
        listener.cancel()
        _ = await listener.value
        #expect(broadcaster.subscriberCount == 1)
        broadcaster.yield(2)
        #expect(await Self.take(2, from: staying) == [1, 2])
    }

    @Test func aDroppedStreamIsRemoved() {
        let broadcaster = EventBroadcaster<Int>()
        do {
            let dropped = broadcaster.subscribe()
            withExtendedLifetime(dropped) { #expect(broadcaster.subscriberCount == 1) }
        }
        #expect(broadcaster.subscriberCount == 0)
    }

    @Test func finishAllEndsEveryStreamAfterWhatWasYielded() async {
        let broadcaster = EventBroadcaster<Int>()
        let first = broadcaster.subscribe()
        let second = broadcaster.subscribe()
        broadcaster.yield(7)
        broadcaster.finishAll()
        #expect(broadcaster.subscriberCount == 0)
        var firstAll: [Int] = []
        for await value in first { firstAll.append(value) }
        var secondAll: [Int] = []
        for await value in second { secondAll.append(value) }
        #expect(firstAll == [7])
        #expect(secondAll == [7])
        broadcaster.yield(8)
        #expect(broadcaster.subscriberCount == 0)
    }
}
