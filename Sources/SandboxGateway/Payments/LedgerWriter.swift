/// Runs ledger writes. Each body runs in a transaction of its own (a savepoint when writes
/// are grouped), so a body that throws changes nothing.
public protocol LedgerWriter: Sendable {
    /// Runs `body` in a write transaction and returns its result once durably committed.
    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T

    /// ``write(_:)`` for a body that changes rows other writes change too (a card's replay
    /// counter and spend): a writer that runs several bodies in one transaction runs them in
    /// the order of their `lockOrder`, so two transactions never take the same rows in
    /// opposite orders and deadlock.
    func write<T: Sendable>(lockOrder: String, _ body: @escaping @Sendable (any SQLSession) throws -> T)
        async throws -> T
}

extension LedgerWriter {
    /// A writer that runs one body per transaction has no order to keep.
    public func write<T: Sendable>(lockOrder: String, _ body: @escaping @Sendable (any SQLSession) throws -> T)
        async throws -> T
    {
        try await write(body)
    }
}

/// One transaction per write: the simplest writer.
public struct DirectLedgerWriter: LedgerWriter {
    /// The database.
    public let database: any GatewayDatabase

    /// Creates a writer over `database`.
    public init(database: any GatewayDatabase) { self.database = database }

    /// Runs `body` in its own transaction.
    public func write<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        try await database.write(body)
    }
}
