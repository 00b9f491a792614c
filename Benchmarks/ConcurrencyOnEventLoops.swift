import NIOCore
import NIOPosix

/// Runs Swift concurrency's global executor on SwiftNIO's event loops, so that a frame read
/// from a socket is handled without a thread switch. A change to the whole process, which
/// is why it lives here and not in a library an app links.
enum ConcurrencyOnEventLoops {
    /// Installs the executor; call once, from the main thread, before any task starts.
    /// Returns false when another executor was already installed.
    ///
    /// - Parameter threads: how many event-loop threads the process uses (default: one per
    ///   core). One suits peers on the same host: a request and its answer never cross threads.
    @discardableResult
    static func install(threads: Int? = nil) -> Bool {
        if let threads { NIOSingletons.groupLoopCountSuggestion = max(1, threads) }
        return NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }
}
