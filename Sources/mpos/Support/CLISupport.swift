import ArgumentParser
import Foundation

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

/// Waits for SIGINT or SIGTERM, so servers shut down cleanly.
enum TerminationSignal {
    /// Returns the name of the signal that arrived.
    static func wait() async -> String {
        await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            let once = ResumeOnce(continuation)
            for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { once.resume(name) }
                source.resume()
                once.keep(source)
            }
        }
    }

    /// Resumes the continuation once and keeps the signal sources alive meanwhile.
    private final class ResumeOnce: @unchecked Sendable {
        // @unchecked: all state is guarded by `lock`.
        private let lock = NSLock()
        private var continuation: CheckedContinuation<String, Never>?
        private var sources: [any DispatchSourceSignal] = []

        init(_ continuation: CheckedContinuation<String, Never>) { self.continuation = continuation }

        func keep(_ source: any DispatchSourceSignal) { lock.withLock { sources.append(source) } }

        func resume(_ name: String) {
            let pending = lock.withLock { () -> CheckedContinuation<String, Never>? in
                defer { continuation = nil }
                return continuation
            }
            pending?.resume(returning: name)
        }
    }
}
