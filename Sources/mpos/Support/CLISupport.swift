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

/// Catches SIGINT and SIGTERM with DispatchSource from creation on, and reports the first
/// one to ``wait()``, so the server can shut down cleanly.
final class TerminationSignals: @unchecked Sendable {
    private let lock = NSLock()
    private var received: String?
    private var continuation: CheckedContinuation<String, Never>?
    private var sources: [any DispatchSourceSignal] = []

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
            lock.lock()
            if let received {
                lock.unlock()
                continuation.resume(returning: received)
            } else {
                self.continuation = continuation
                lock.unlock()
            }
        }
    }

    private func deliver(_ name: String) {
        lock.lock()
        guard received == nil else {
            lock.unlock()
            return
        }
        received = name
        let continuation = self.continuation
        self.continuation = nil
        lock.unlock()
        continuation?.resume(returning: name)
    }

    deinit {
        for source in sources { source.cancel() }
        for number in [SIGINT, SIGTERM] { signal(number, SIG_DFL) }
    }
}
