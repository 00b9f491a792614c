/// Runs ledger writes. Each body runs in a transaction of its own (a savepoint when writes
/// are grouped), so a body that throws changes nothing.
public protocol LedgerWriter: Sendable {
    /// Runs `body` in a write transaction and returns its result once durably committed.
    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T
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
