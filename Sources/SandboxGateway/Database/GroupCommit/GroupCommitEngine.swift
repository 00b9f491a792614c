/// How one engine commits a group of writes: the part of group commit that differs between
/// SQLite and PostgreSQL. ``GroupCommitQueue`` does the rest (batching, waiting, answering
/// each caller, running a group again) the same way for both.
protocol GroupCommitEngine: Sendable {
    /// What a drain holds while it commits groups: SQLite's one writer (nothing to hold, the
    /// pool serializes), a PostgreSQL lane.
    associatedtype Connection
    /// The session the group's bodies run on.
    associatedtype Session: SQLSession

    /// How many groups may commit at the same time.
    var concurrentGroups: Int { get }

    /// Runs `drain` on a thread of the engine's own with a connection; returns false when the
    /// engine is closed and will run nothing more.
    func startDrain(_ drain: @escaping @Sendable (Connection) -> Void) -> Bool

    /// What the callers still waiting hear when ``startDrain(_:)`` refused.
    var closedError: any Error { get }

    /// Begins a transaction on `connection`, runs `group` in it and commits. When `group` or
    /// the commit throws, the transaction is rolled back and the error rethrown.
    ///
    /// With `savepoints` false the group's bodies run without savepoints of their own (the
    /// queue expects none of them to fail); an engine may then leave out the savepoints the
    /// bodies open themselves.
    func commit(on connection: Connection, savepoints: Bool, _ group: (Session) throws -> Void) throws

    /// Whether `error` calls for running the whole group again (a serialization failure, a
    /// deadlock) rather than failing one body.
    func isRetryable(_ error: any Error) -> Bool

    /// Whether `session`'s transaction is still open after a body failed: a failure that
    /// ended it leaves the group's other bodies nothing to run in.
    func isOpen(_ session: Session) -> Bool

    /// Runs once a group's callers have their answers, before the next group.
    func groupAnswered(on connection: Connection)
}

extension GroupCommitEngine {
    func isRetryable(_ error: any Error) -> Bool { false }
    func isOpen(_ session: Session) -> Bool { true }
    func groupAnswered(on connection: Connection) {}
}
