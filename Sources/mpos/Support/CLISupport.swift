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

/// Where the signal handler writes: the write end of the pipe ``TerminationSignals`` reads.
/// Set before the handler is installed and never changed while it is.
nonisolated(unsafe) private var terminationPipe: Int32 = -1

/// Catches SIGINT and SIGTERM from creation on, and reports the first one to ``wait()``, so
/// the server can shut down cleanly.
///
/// The handler is installed before `init` returns and only writes the signal's number to a
/// pipe (write(2) is safe in a signal handler); a thread of its own reads it. A signal that
/// arrives at any moment after `init` is kept in the pipe until it is read. (Ignoring the
/// signals and watching them with a Dispatch signal source lost a SIGTERM sent just after
/// start-up on Linux, and the process never exited.)
final class TerminationSignals: Sendable {
    private struct State {
        var received: String?
        var continuation: CheckedContinuation<String, Never>?
    }

    private let state = Mutex(State())

    init() {
        var ends: [Int32] = [-1, -1]
        guard ends.withUnsafeMutableBufferPointer({ pipe($0.baseAddress!) }) == 0 else { return }
        terminationPipe = ends[1]
        for number in [SIGINT, SIGTERM] {
            _ = signal(number) { received in
                var byte = UInt8(truncatingIfNeeded: received)
                _ = write(terminationPipe, &byte, 1)
            }
        }
        let readEnd = ends[0]
        // A thread of its own: it waits in read(2), which must not hold a concurrency thread.
        Thread.detachNewThread { [weak self] in
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) < 0, errno == EINTR {}
            self?.deliver(Int32(byte) == SIGINT ? "SIGINT" : "SIGTERM")
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
        for number in [SIGINT, SIGTERM] { signal(number, SIG_DFL) }
    }
}
