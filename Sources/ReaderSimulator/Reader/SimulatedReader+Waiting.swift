import ReaderLink

/// How a transaction waits for the SDK (a card, a choice, the host's answer) or for a human delay.
extension SimulatedReader {
    enum PauseResult { case elapsed, cancelled }

    /// The human delay, interruptible by a cancel.
    func pause() async -> PauseResult {
        if case .cancelled? = bufferedInputs.first(where: { if case .cancelled = $0 { true } else { false } }) {
            return .cancelled
        }
        guard configuration.humanDelay > .zero else { return .elapsed }
        if case .cancelled = await awaitInput(timeout: configuration.humanDelay) { return .cancelled }
        return .elapsed
    }

    /// Waits for the SDK's next input, or `.timedOut` after `timeout`.
    func awaitInput(timeout: Duration?) async -> SDKInput {
        if !bufferedInputs.isEmpty { return bufferedInputs.removeFirst() }
        // Everything said so far reaches the SDK before the reader waits for it; while the
        // transaction waits, other events (a scan, the battery) leave at once.
        let held = holdingEvents
        await releaseEvents()
        defer { holdingEvents = held }
        return await withCheckedContinuation { (continuation: CheckedContinuation<SDKInput, Never>) in
            waiter = continuation
            if let timeout {
                // Unstructured: a timer cancelled as soon as the input it waits for arrives.
                waiterTimeout = Task { [clock] in
                    do { try await clock.sleep(for: timeout) } catch { return }
                    self.timeoutWaiter()
                }
            }
        }
    }

    func timeoutWaiter() { resumeWaiter(with: .timedOut) }

    func resumeWaiter(with input: SDKInput) {
        guard let waiter else { return }
        self.waiter = nil
        waiterTimeout?.cancel()
        waiterTimeout = nil
        waiter.resume(returning: input)
    }

    func deliver(_ input: SDKInput) {
        guard transaction != nil else { return }
        if waiter != nil { resumeWaiter(with: input) } else { bufferedInputs.append(input) }
    }

    func deliverIfWaiting(_ input: SDKInput) -> ReaderMessage {
        guard transaction != nil else {
            return .error(.commandNotAllowed, detail: "no transaction is waiting for this")
        }
        deliver(input)
        return .ack
    }
}
