extension TransactionScreens {
    /// Runs the screens over a payment's `events` on `clock`: yields each screen as it
    /// changes, and ends once the screens are down (the success screen's timeout passed) or
    /// the payment ended otherwise, whose last screen stays until the app dismisses it.
    ///
    /// ```swift
    /// let events = terminal.events.subscribe()
    /// async let result = terminal.sale(parameters)
    /// for await screen in screens.run(events: events, clock: ContinuousClock()) { show(screen) }
    /// ```
    public func run<C: Clock<Duration>>(
        events: some AsyncSequence<TerminalEvent, Never> & Sendable, clock: C
    ) -> AsyncStream<TransactionScreen> {
        let initial = self
        return AsyncStream { continuation in
            // Unstructured: the stream's reader owns its lifetime and cancels it by leaving.
            let task = Task {
                var machine = initial
                let start = clock.now
                continuation.yield(machine.screen)
                for await event in events {
                    let before = machine.screen
                    machine.handle(event, at: start.duration(to: clock.now))
                    if machine.screen != before { continuation.yield(machine.screen) }
                    if machine.screen.isFinal { break }
                }
                if let dismissAt = machine.dismissAt {
                    // Cancelled: the reader left, and the stream ends at once, as it should.
                    try? await clock.sleep(until: start.advanced(by: dismissAt), tolerance: nil)
                    machine.timePassed(to: start.duration(to: clock.now))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
