import Foundation
import GatewayAPI
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// SandboxGateway: a real payment gateway for development, an HTTP server (Hummingbird)
/// over a SQLite database (GRDB) speaking the ``GatewayAPI`` contract.
///
/// ```swift
/// let gateway = try await SandboxGateway.start(.init(databasePath: "/tmp/sandbox.sqlite"))
/// print(gateway.baseURL, gateway.credentials?.password ?? "(existing database)")
/// …
/// await gateway.shutdown()
/// ```
public enum SandboxGateway {
    /// Opens (and migrates) the database, creates the sandbox merchant on first start,
    /// binds the server and returns once it is listening.
    ///
    /// - Throws: ``GatewayStartupError/plainHTTPBeyondLoopback`` before anything opens when the
    ///   configuration serves plain HTTP beyond loopback without `allowsInsecureHTTP`; database
    ///   errors, ``GatewayStartupError`` when the database cannot be served as it is (a
    ///   card-fingerprint key that cannot be used or is not the database's), or the bind error
    ///   when the port is taken.
    public static func start(_ given: SandboxGatewayConfiguration) async throws -> RunningGateway {
        if given.servesPlainHTTPBeyondLoopback, !given.allowsInsecureHTTP {
            throw GatewayStartupError.plainHTTPBeyondLoopback(host: given.host)
        }
        var settled = given
        if settled.fingerprintKey == nil, settled.fingerprintKeyFile == nil {
            settled.fingerprintKey = .ofThisProcess
        }
        let store = try await GatewayStore(opening: settled)
        // A restart from `environment.configuration` uses the same key.
        settled.fingerprintKey = store.fingerprintKey
        let configuration = settled
        let environment: GatewayEnvironment
        do {
            environment = try await GatewayEnvironment(configuration: configuration, store: store)
        } catch {
            // Closed now rather than whenever the last read lets go of the pool, so that the
            // file is free for whoever repairs it.
            // The start's own error is what the caller hears.
            try? await store.database.close()
            throw error
        }
        let credentials = try await environment.accounts.bootstrapIfEmpty()
        try await environment.idempotency.purgeExpired()
        // Refunds a stopped process left pending and now due are decided before serving.
        let refunds = PendingRefundSettler(environment: environment)
        try await refunds.settleDue()
        // No other instance serves this database: claims still set were a stopped process's.
        if !store.database.isSharedByInstances {
            try await store.database.write { db in try WebhookOutbox.releaseClaims(db) }
        }

        var logger = Logger(label: "mposkit.sandbox-gateway")
        logger.logLevel = configuration.logLevel
        let router = makeRouter(environment: environment)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router,
            server: try configuration.serverBuilder(),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: "MPOSKit-SandboxGateway"),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? configuration.port)
                continuation.finish()
            },
            logger: logger
        )
        // The server runs in a service group of its own, so that `RunningGateway.shutdown()`
        // can stop it gracefully: no new connections, the requests in flight answered.
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        // Unstructured: the server runs until `RunningGateway.shutdown()`, which stops and awaits it.
        let task = Task {
            defer { continuation.finish() }
            let settling = refunds.start(configuration)
            defer { settling?.cancel() }
            environment.webhookOutbox.start(
                every: configuration.webhookOutboxInterval, clock: configuration.webhookOutboxClock)
            try await group.run()
        }
        var boundPort: Int?
        for await port in ports {
            boundPort = port
            break
        }
        guard let boundPort else {
            try await task.value
            throw GatewayError.internalError("The server stopped before it was listening.")
        }
        return RunningGateway(
            port: boundPort, host: configuration.host, credentials: credentials,
            environment: environment, group: group, task: task, refunds: refunds)
    }

    /// The router with every domain's routes and the error and authentication middleware.
    ///
    /// EXTENSION POINT: each domain registers its routes in its own `add…Routes` function,
    /// called here.
    static func makeRouter(environment: GatewayEnvironment) -> Router<GatewayRequestContext> {
        // HEAD on every GET route answers as GET does, without the body.
        let router = Router(context: GatewayRequestContext.self, options: .autoGenerateHeadEndpoints)
        if environment.configuration.tls != nil {
            // Outermost, so that error answers carry it too.
            router.add(middleware: StrictTransportSecurityMiddleware())
        }
        router.add(middleware: GatewayErrorMiddleware())
        router.add(middleware: GatewayAuthMiddleware(environment: environment))
        addServiceRoutes(to: router, environment: environment)
        addAccountRoutes(to: router, environment: environment)
        addAttemptRoutes(to: router, environment: environment)
        addMerchantAdminRoutes(to: router, environment: environment)
        addPaymentRoutes(to: router, environment: environment)
        addReportingRoutes(to: router, environment: environment)
        addUpdateRoutes(to: router, environment: environment)
        addDashboardRoutes(to: router, environment: environment)
        environment.configuration.additionalRoutes?(router, environment)
        return router
    }
}

/// A gateway that is listening. Call ``shutdown()`` to stop it.
public final class RunningGateway: Sendable {
    /// The bound port (the free one picked when the configuration said 0).
    public let port: Int
    /// `http://host:port` (`https` when serving TLS), without a trailing slash.
    public let baseURL: URL
    /// The sandbox merchant's credentials when this start created them (first start on an
    /// empty database); `nil` otherwise, as only hashes are stored.
    public let credentials: SandboxCredentials?
    /// The database, accounts and idempotency store, for tools and tests.
    public let environment: GatewayEnvironment
    /// The gateway's instance id, created with its database: the same on every start.
    public var instanceID: String { environment.store.instanceID }
    private let group: ServiceGroup
    private let task: Task<Void, any Error>
    /// Decides the refunds accepted as received.
    let refunds: PendingRefundSettler

    init(
        port: Int, host: String, credentials: SandboxCredentials?, environment: GatewayEnvironment,
        group: ServiceGroup, task: Task<Void, any Error>, refunds: PendingRefundSettler
    ) {
        self.group = group
        self.refunds = refunds
        self.port = port
        self.baseURL = URL(string: "\(environment.configuration.scheme)://\(host):\(port)")!
        self.credentials = credentials
        self.environment = environment
        self.task = task
    }

    /// Housekeeping with the injected clock: purges idempotency keys past their retention, and
    /// folds the daily figures' appended changes into the figures (``DailyTotalChanges``).
    ///
    /// - Returns: how many keys were purged.
    @discardableResult
    public func runMaintenance() async throws -> Int {
        try await environment.store.database.write { db in try DailyTotalChanges.apply(db) }
        return try await environment.idempotency.purgeExpired()
    }

    /// Stops gracefully: accepts no new connection, answers the requests in flight, closes
    /// idle keep-alive connections, and returns once the server has stopped. Requests still
    /// running after the configuration's `shutdownGracePeriod` are cancelled.
    public func shutdown() async {
        await group.triggerGracefulShutdown()
        let task = self.task
        let grace = environment.configuration.shutdownGracePeriod
        let deadline = Task {
            try await Task.sleep(for: grace)
            task.cancel()
        }
        // The server's end (cancelled after the grace period) is the shutdown itself, not an error to report.
        _ = try? await task.value
        deadline.cancel()
        await environment.webhookOutbox.stop()
        // A PostgreSQL database's connections have threads of their own; a SQLite pool is
        // left to its last reader, as tools may still read the file.
        if environment.store.database.closesWithTheGateway {
            // Stopping: the connections go with the process anyway.
            try? await environment.store.database.close()
        }
    }

    /// Waits until the server stops (after ``shutdown()`` or a fatal server error).
    public func waitUntilStopped() async throws {
        try await task.value
    }
}
