import Foundation
import GRDB
import Logging
import NIOCore
import PostgresNIO

/// The gateway's database on PostgreSQL, for several gateway instances on one database.
///
/// Reads run on a snapshot (`REPEATABLE READ READ ONLY`), writes in transactions of their
/// own (`READ COMMITTED`, run again on a serialization failure or a deadlock), payments
/// through group commit on a few connections in parallel (``PostgresGroupCommitWriter``).
/// Commits are durable (`synchronous_commit` on). Opening the database applies the schema's
/// migrations (``PostgresMigrations``); every instance on the database shares its instance id.
///
/// The domain's statements run synchronously, so every connection has a thread of its own
/// (a lane) that blocks on the server's answers; async callers are resumed from it.
///
/// ```swift
/// let database = try await PostgresGatewayDatabase(url: PostgresURL("postgres://gw@127.0.0.1:5432/sandbox"))
/// let count = try await database.read { try $0.fetchValue(Int.self, sql: "SELECT COUNT(*) FROM merchant") }
/// ```
public final class PostgresGatewayDatabase: GatewayDatabase {
    /// How many connections the database keeps and how writes are retried.
    public struct Configuration: Sendable {
        /// Connections for reads (default 4).
        public var readConnections = 4
        /// Connections for writes outside group commit (default 2).
        public var writeConnections = 2
        /// Connections that drain group commits in parallel (default 1). Groups of two lanes that
        /// touch the same cards' rows in different orders deadlock, which PostgreSQL finds only
        /// after a second; one lane per instance never meets another lane of its own.
        public var groupCommitLanes = 1
        /// The most writes one group commit takes (default 256).
        public var maximumGroupSize = 256
        /// How many times a write runs at most when it meets `40001` or `40P01` (default 5).
        public var maximumAttempts = 5
        /// How many statements each connection prepares once and runs by name afterwards
        /// (default 0: none); statements past that are parsed and planned by the server each
        /// time they run. Off by default: through PostgresNIO's named statements a statement
        /// costs the gateway more than the server saves (docs/performance.md).
        public var preparedStatementsPerConnection = 0
        /// How long opening a connection may take (default 10 s).
        public var connectTimeout: TimeAmount = .seconds(10)
        /// How long ``PostgresGatewayDatabase/isReachable()`` waits for an answer (default 2 s).
        public var reachabilityTimeout: TimeAmount = .seconds(2)
        /// Where PostgresNIO logs.
        public var logger = Logger(label: "mposkit.sandbox-gateway.postgres")

        /// The defaults.
        public init() {}
    }

    /// ``SQLDialect/postgres``.
    public let dialect = SQLDialect.postgres

    /// Several instances serve one PostgreSQL database.
    public var isSharedByInstances: Bool { true }

    /// Transactions of several lanes and instances commit at once.
    public var writesOneAtATime: Bool { false }

    /// Its lanes' connections and threads are closed when the gateway stops.
    public var closesWithTheGateway: Bool { true }
    /// The gateway's instance id, shared by every instance on this database.
    public let instanceID: String
    /// The connection settings.
    public let url: PostgresURL
    /// The migrations opening the database applied (none when it was up to date), oldest first.
    public let appliedMigrations: [String]

    private let configuration: Configuration
    private let settings: PostgresSettings
    private let readers: PostgresLanePool
    private let writers: PostgresLanePool
    private let groupLanes: PostgresLanePool
    /// The payment path's writer.
    let groupWriter: PostgresGroupCommitWriter

    /// Connects to `url`, applies the migrations the database has not had and reads the
    /// instance id.
    ///
    /// - Throws: ``PostgresEngineError`` when the server cannot be reached or a migration fails;
    ///   ``GatewayStartupError/fingerprintKeyRequired`` when the database still holds its
    ///   card-fingerprint key (made by an older version): open it with
    ///   ``GatewayStore/init(opening:)`` and a key.
    public convenience init(url: PostgresURL, configuration: Configuration = Configuration()) async throws {
        try await self.init(
            url: url, configuration: configuration,
            fingerprintKey: CardFingerprintKeyCheck(given: nil, database: url.description))
    }

    /// Opens the database as ``init(url:configuration:)`` does, settling its card-fingerprint
    /// key with `fingerprintKey` before migrating it.
    init(url: PostgresURL, configuration: Configuration, fingerprintKey: CardFingerprintKeyCheck) async throws {
        self.url = url
        self.configuration = configuration
        let settings = PostgresSettings(
            url: url, connectTimeout: configuration.connectTimeout,
            preparedStatements: configuration.preparedStatementsPerConnection)
        let logger = configuration.logger
        self.settings = settings
        let readers = PostgresLanePool(
            label: "mposkit.sandbox-gateway.postgres.read", size: configuration.readConnections, settings: settings,
            logger: logger)
        let writers = PostgresLanePool(
            label: "mposkit.sandbox-gateway.postgres.write", size: configuration.writeConnections, settings: settings,
            logger: logger)
        let groupLanes = PostgresLanePool(
            label: "mposkit.sandbox-gateway.postgres.group", size: configuration.groupCommitLanes, settings: settings,
            logger: logger)
        self.readers = readers
        self.writers = writers
        self.groupLanes = groupLanes
        groupWriter = PostgresGroupCommitWriter(
            lanes: groupLanes, maximumGroupSize: configuration.maximumGroupSize,
            maximumAttempts: configuration.maximumAttempts)
        do {
            try await writers.run { lane in
                do {
                    try fingerprintKey.resolve(try lane.session())
                } catch {
                    lane.discard(after: error)
                    throw error
                }
            }
            appliedMigrations = try await Self.migrate(on: writers)
            instanceID = try await writers.run { lane in
                let session = try lane.session()
                guard
                    let id = try session.fetchValue(String.self, sql: "SELECT instanceId FROM gatewayInstance WHERE id = 1"),
                    !id.isEmpty
                else { throw PostgresEngineError.client("The database has no gateway instance id.") }
                return id
            }
        } catch {
            await readers.close()
            await writers.close()
            await groupLanes.close()
            throw error
        }
    }

    /// Applies the schema's migrations the database has not had (opening the database does so
    /// too) and returns their names; none when it is up to date.
    ///
    /// - Throws: ``PostgresEngineError`` from the migration that failed (rolled back).
    @discardableResult
    public func migrate() async throws -> [String] {
        try await Self.migrate(on: writers)
    }

    private static func migrate(on writers: PostgresLanePool) async throws -> [String] {
        try await writers.run { lane in
            do {
                return try PostgresMigrations.migrate(try lane.session())
            } catch {
                lane.discard(after: error)
                throw error
            }
        }
    }

    /// Runs `body` on a snapshot: `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY` … `COMMIT`.
    /// A connection found lost is opened again and the read runs once more.
    public func read<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        try await readers.run { lane in
            var attempt = 1
            while true {
                do {
                    let session = try lane.session()
                    try session.execute(sql: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                    let result = try body(session)
                    try session.execute(sql: "COMMIT")
                    return result
                } catch {
                    lane.rollback(after: error)
                    if attempt == 1, (error as? PostgresEngineError)?.connectionLost == true {
                        attempt += 1
                        continue
                    }
                    throw error
                }
            }
        }
    }

    /// Runs `body` in a `READ COMMITTED` transaction of its own and returns once it is
    /// durably committed; runs it again (a few times at most) on `40001` or `40P01`.
    @discardableResult
    public func write<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        let maximumAttempts = configuration.maximumAttempts
        return try await writers.run { lane in
            var attempt = 1
            while true {
                var begun = false
                do {
                    let session = try lane.session()
                    try session.execute(sql: "BEGIN ISOLATION LEVEL READ COMMITTED")
                    begun = true
                    let result = try body(session)
                    try session.execute(sql: "COMMIT")
                    return result
                } catch {
                    lane.rollback(after: error)
                    let engineError = error as? PostgresEngineError
                    // Retried: a conflict the server resolved by aborting us, or a connection
                    // found lost before the transaction began (nothing of it reached the server).
                    let retry = engineError?.isRetryable == true || (!begun && engineError?.connectionLost == true)
                    if retry, attempt < maximumAttempts {
                        attempt += 1
                        continue
                    }
                    throw error
                }
            }
        }
    }

    /// The payment path's writer: group commit on ``Configuration/groupCommitLanes`` connections.
    /// The group-commit writer (``groupWriter``).
    public var groupCommitWriter: any LedgerWriter { groupWriter }

    /// Whether the server answers `SELECT 1` on a new connection within
    /// ``Configuration/reachabilityTimeout``.
    public func isReachable() async -> Bool {
        var configuration = settings.configuration
        configuration.options.connectTimeout = self.configuration.reachabilityTimeout
        let timeout = self.configuration.reachabilityTimeout
        let logger = self.configuration.logger
        let eventLoop = PostgresConnection.defaultEventLoopGroup.any()
        let promise = eventLoop.makePromise(of: Bool.self)
        let deadline = eventLoop.scheduleTask(in: timeout) { promise.fail(ChannelError.connectTimeout(timeout)) }
        PostgresConnection.connect(on: eventLoop, configuration: configuration, id: settings.nextConnectionID(), logger: logger)
            .flatMap { connection in
                connection.query("SELECT 1", logger: logger)
                    .map { _ in true }
                    .always { _ in connection.close().whenComplete { _ in } }
            }
            .whenComplete { result in
                deadline.cancel()
                promise.completeWith(result)
            }
        // Any failure is the answer: not reachable.
        return (try? await promise.futureResult.get()) ?? false
    }

    /// Closes every connection once the work queued on it has finished.
    public func close() async throws {
        await groupLanes.close()
        await writers.close()
        await readers.close()
    }
}
