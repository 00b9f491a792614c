import Synchronization

/// A part's weak reference to the facade that holds it, settable from the facade's initializer.
final class TerminalSlot: Sendable {
    private struct Weak: Sendable {
        weak var terminal: PaymentTerminal?
    }
    private let slot = Mutex(Weak())

    func set(_ terminal: PaymentTerminal) { slot.withLock { $0.terminal = terminal } }
    func get() -> PaymentTerminal? { slot.withLock { $0.terminal } }
}
