import ReaderSimulator
import Synchronization

/// The reader behind a sandbox's TCP server. A test may change it before the next connection
/// is served: clear its faults, or power it off and serve a new reader booted from the same
/// state directory (a reader killed and powered on again).
final class ReaderSocket: Sendable {
    typealias Change = @Sendable (SimulatedReader) async -> SimulatedReader

    private struct State {
        var reader: SimulatedReader
        var change: Change?
    }

    private let state: Mutex<State>

    init(_ reader: SimulatedReader) { state = Mutex(State(reader: reader)) }

    /// The reader serving connections now.
    var reader: SimulatedReader { state.withLock { $0.reader } }

    /// Whether a change waits for the next connection.
    var isChangePending: Bool { state.withLock { $0.change != nil } }

    /// Runs `change` when the next connection arrives; the reader it returns serves it.
    func beforeNextConnection(_ change: @escaping Change) { state.withLock { $0.change = change } }

    /// The reader for a new connection, after the pending change if there is one.
    func next() async -> SimulatedReader {
        let (reader, change) = state.withLock { state in
            defer { state.change = nil }
            return (state.reader, state.change)
        }
        guard let change else { return reader }
        let changed = await change(reader)
        state.withLock { $0.reader = changed }
        return changed
    }
}
