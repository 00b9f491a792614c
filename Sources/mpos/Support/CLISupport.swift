import ArgumentParser
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failure the tool reports as one line on standard error with exit code 1.
struct CLIFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Unbuffered output, so that a parent process reading a pipe sees each line at once
/// (`listening on …` must arrive before the first client connects).
enum CLIOutput {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

/// Catches SIGINT and SIGTERM with DispatchSource from creation on, and reports the first
/// one to ``wait()``, so the server can shut down cleanly.
final class TerminationSignals: Sendable {
    private struct State {
        var received: String?
        var continuation: CheckedContinuation<String, Never>?
    }

    private let state = Mutex(State())
    // Set in init only. Dispatch sources are thread-safe, but Linux's Dispatch does not mark them Sendable.
    nonisolated(unsafe) private var sources: [any DispatchSourceSignal] = []

    init() {
        for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.deliver(name) }
            source.resume()
            sources.append(source)
        }
    }

    /// The name of the first signal received, waiting for one if none came yet.
    func wait() async -> String {
        await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            let received = state.withLock { state -> String? in
                if state.received == nil { state.continuation = continuation }
                return state.received
            }
            if let received { continuation.resume(returning: received) }
        }
    }

    private func deliver(_ name: String) {
        let waiting = state.withLock { state -> CheckedContinuation<String, Never>? in
            guard state.received == nil else { return nil }
            state.received = name
            defer { state.continuation = nil }
            return state.continuation
        }
        waiting?.resume(returning: name)
    }

    deinit {
        for source in sources { source.cancel() }
        for number in [SIGINT, SIGTERM] { signal(number, SIG_DFL) }
    }
}
