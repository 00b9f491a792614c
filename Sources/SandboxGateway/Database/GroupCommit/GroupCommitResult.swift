import Synchronization

/// One queued write's result in a group commit, held until its group has committed (or
/// failed), then handed to the waiting caller once: the part both engines' group-commit
/// writers share (``GroupCommitLedgerWriter`` on SQLite, `PostgresGroupCommitWriter`).
final class GroupCommitResult<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var result: Result<T, any Error>?
    }
    private let state: Mutex<State>

    init(_ continuation: CheckedContinuation<T, any Error>) {
        state = Mutex(State(continuation: continuation))
    }

    /// Records the write's result; a later call replaces it (a group run again, or a failed
    /// commit that overrides the body's success).
    func set(_ result: Result<T, any Error>) {
        state.withLock { $0.result = result }
    }

    /// Resumes the caller with the last result recorded, once.
    func resume() {
        let (continuation, result) = state.withLock { state in
            defer { state.continuation = nil }
            return (state.continuation, state.result)
        }
        continuation?.resume(with: result ?? .failure(CancellationError()))
    }
}
