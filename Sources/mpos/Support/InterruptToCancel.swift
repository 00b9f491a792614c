import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C while a card operation runs: the first SIGINT calls `onFirst` (which asks the
/// terminal to cancel, so the command ends with the cancelled result), a second one ends the
/// process at once with status 130. ``remove()`` gives SIGINT back its default action.
final class InterruptToCancel: Sendable {
    private let count = Mutex(0)
    // Dispatch sources are thread-safe, but Linux's Dispatch does not mark them Sendable.
    nonisolated(unsafe) private let source: any DispatchSourceSignal

    init(onFirst: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { [weak self] in self?.received(onFirst) }
        source.resume()
    }

    /// Counts the signals this event stands for (several sent at once arrive as one event).
    private func received(_ onFirst: @Sendable () -> Void) {
        let signals = Int(source.data)
        let before = count.withLock { count -> Int in
            defer { count += max(1, signals) }
            return count
        }
        if before + max(1, signals) > 1 {
            CLIOutput.error("interrupted again: quitting without waiting for the reader")
            exit(130)
        }
        onFirst()
    }

    /// Stops catching SIGINT.
    func remove() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
