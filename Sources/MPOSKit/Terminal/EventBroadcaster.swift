import Synchronization

/// Hands each element to every live subscriber whose filter accepts it, in the order they
/// were broadcast. Each subscriber is an `AsyncStream`; when its consumer stops listening (the
/// iterating task ends or is cancelled, or the stream is dropped) it is removed.
final class EventBroadcaster<Element: Sendable>: Sendable {
    private struct Subscriber: Sendable {
        let accepts: @Sendable (Element) -> Bool
        let continuation: AsyncStream<Element>.Continuation
    }

    private struct State {
        var subscribers: [UInt64: Subscriber] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    /// A broadcaster without subscribers.
    init() {}

    /// How many subscribers listen.
    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// A new subscriber's stream of the elements `accepts` lets through, from now on.
    func subscribe(
        bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded,
        where accepts: @escaping @Sendable (Element) -> Bool = { _ in true }
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: bufferingPolicy)
        let id = state.withLock { state in
            defer { state.nextID &+= 1 }
            return state.nextID
        }
        // Never runs under the lock: `yield` and `finishAll` end no stream while holding it.
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        state.withLock { $0.subscribers[id] = Subscriber(accepts: accepts, continuation: continuation) }
        return stream
    }

    /// Hands `element` to every subscriber that accepts it.
    func yield(_ element: Element) {
        // Copied out so that no stream is fed (or ends) while the lock is held.
        let subscribers = state.withLock { Array($0.subscribers.values) }
        for subscriber in subscribers where subscriber.accepts(element) {
            subscriber.continuation.yield(element)
        }
    }

    /// Ends every subscriber's stream (what was yielded is still delivered) and forgets them.
    func finishAll() {
        let subscribers = state.withLock { state in
            defer { state.subscribers.removeAll() }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.continuation.finish() }
    }
}
