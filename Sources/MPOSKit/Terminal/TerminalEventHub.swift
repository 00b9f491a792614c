import Synchronization

/// The events part: the terminal's one stream of every event, the filtered streams of
/// ``PaymentTerminal/subscribe(_:)`` and the handlers of ``PaymentTerminal/addEventHandler(_:_:)``,
/// behind one lock each, so that subscribing needs no hop onto the terminal.
final class TerminalEventHub: Sendable {
    /// Every event; keeps the newest only, so that a terminal nobody listens to does not
    /// hoard events.
    let stream: AsyncStream<TerminalEvent>
    private let sink: AsyncStream<TerminalEvent>.Continuation
    private let subscribers = EventBroadcaster<TerminalEvent>()
    private let handlers = Mutex<[(Set<TerminalEventCategory>, TerminalEventHandler)]>([])

    init() {
        (stream, sink) = AsyncStream.makeStream(
            of: TerminalEvent.self, bufferingPolicy: .bufferingNewest(256))
    }

    /// A stream of the events in `categories` only.
    func subscribe(_ categories: Set<TerminalEventCategory>) -> AsyncStream<TerminalEvent> {
        subscribers.subscribe { categories.contains($0.category) }
    }

    func addHandler(_ categories: Set<TerminalEventCategory>, _ handler: @escaping TerminalEventHandler) {
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
