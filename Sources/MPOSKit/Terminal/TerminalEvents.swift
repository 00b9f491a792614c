import Synchronization

/// A terminal's events, reached as ``PaymentTerminal/events``: every event as one stream
/// (iterate it directly), streams filtered by category, and handlers that see each event
/// before the operation that caused it goes on.
///
/// ```swift
/// for await event in terminal.events { print(event) }
/// let cards = terminal.events.subscribe([.card, .reader])
/// terminal.events.addHandler([.transaction]) { event in log(event) }
/// ```
///
/// The stream keeps the newest 256 events only, so that a terminal nobody listens to does not
/// hoard them; it is meant for one reader, as an `AsyncStream` is. Each ``subscribe(_:)``
/// makes a stream of its own.
public final class TerminalEvents: AsyncSequence, Sendable {
    public typealias Element = TerminalEvent

    private let stream: AsyncStream<TerminalEvent>
    private let sink: AsyncStream<TerminalEvent>.Continuation
    private let subscribers = EventBroadcaster<TerminalEvent>()
    private let handlers = Mutex<[(Set<TerminalEventCategory>, TerminalEventHandler)]>([])

    init() {
        (stream, sink) = AsyncStream.makeStream(
            of: TerminalEvent.self, bufferingPolicy: .bufferingNewest(256))
    }

    /// Iterates every event, as it happens.
    public func makeAsyncIterator() -> AsyncStream<TerminalEvent>.Iterator { stream.makeAsyncIterator() }

    /// A stream of the events in `categories` only (the ECP seed's subscription filter: no
    /// categories, or an empty set, means every category). It ends when the caller stops
    /// listening or at ``PaymentTerminal/reset()``.
    public func subscribe(_ categories: Set<TerminalEventCategory> = Set(TerminalEventCategory.allCases))
        -> AsyncStream<TerminalEvent>
    {
        let categories = Self.orAll(categories)
        return subscribers.subscribe { categories.contains($0.category) }
    }

    /// The ECP seed's rule for a subscription: an empty set is every category.
    static func orAll(_ categories: Set<TerminalEventCategory>) -> Set<TerminalEventCategory> {
        categories.isEmpty ? Set(TerminalEventCategory.allCases) : categories
    }

    /// Calls `handler` with each event in `categories` as it happens, before the operation
    /// that caused it goes on: when `sale` returns, the handler has seen all of its events, in
    /// order (a stream's reader may still be catching up). The handler runs on the terminal's
    /// executor, so it must be quick and must not wait for the terminal. An empty set of
    /// categories is every category. ``PaymentTerminal/reset()`` removes it.
    public func addHandler(
        _ categories: Set<TerminalEventCategory> = Set(TerminalEventCategory.allCases),
        _ handler: @escaping TerminalEventHandler
    ) {
        let categories = Self.orAll(categories)
        handlers.withLock { $0.append((categories, handler)) }
    }

    /// Hands `event` to every listener: the stream, the handlers (on the caller, before it
    /// goes on), the subscriptions.
    func emit(_ event: TerminalEvent) {
        sink.yield(event)
        let handlers = handlers.withLock { $0 }
        for (filter, handler) in handlers where filter.contains(event.category) { handler(event) }
        subscribers.yield(event)
    }

    /// Ends every subscription and removes the handlers (the stream goes on).
    func reset() {
        subscribers.finishAll()
        handlers.withLock { $0.removeAll() }
    }
}
