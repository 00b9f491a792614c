import Synchronization
import Testing

@testable import MPOSKit

/// A terminal's events object: the one stream, filtered subscriptions, handlers, and the ECP
/// seed's rule that an empty subscription is every event.
@Suite(.timeLimit(.minutes(1))) struct TerminalEventsTests {
    @Test func anEmptySubscriptionAndAnEmptyHandlerFilterGetEveryEvent() async {
        let events = TerminalEvents()
        var everything = events.subscribe([]).makeAsyncIterator()
        var cardsOnly = events.subscribe([.card]).makeAsyncIterator()
        let handled = Mutex<[TerminalEvent]>([])
        events.addHandler([]) { event in handled.withLock { $0.append(event) } }
        events.emit(.batteryLow(BatteryStatus(percentage: 5, isCharging: false, hasExternalPower: false)))
        events.emit(.card(.inserted))
        #expect(await everything.next()?.category == .status)
        #expect(await everything.next() == .card(.inserted))
        #expect(await cardsOnly.next() == .card(.inserted))
        #expect(handled.withLock { $0.count } == 2)
    }

    @Test func resetEndsSubscriptionsAndRemovesHandlersButNotTheStream() async {
        let events = TerminalEvents()
        var all = events.makeAsyncIterator()
        var subscription = events.subscribe().makeAsyncIterator()
        let handled = Mutex(0)
        events.addHandler { _ in handled.withLock { $0 += 1 } }
        events.reset()
        events.emit(.card(.inserted))
        #expect(await subscription.next() == nil)
        #expect(handled.withLock { $0 } == 0)
        #expect(await all.next() == .card(.inserted))
    }
}
