import Foundation
import Hummingbird
import Logging
import Synchronization

/// How a sandbox gateway runs: where it listens, where it keeps its data, what time it is.
public struct SandboxGatewayConfiguration: Sendable {
    /// The address to bind, `127.0.0.1` by default (the sandbox is for this machine).
    public var host: String
    /// The port to bind; 0 picks a free one (read it from ``RunningGateway/port``).
    public var port: Int
    /// The SQLite database file; created 0600 (and the folders it needs 0700) if missing. Not
    /// used when ``databaseURL`` is set.
    public var databasePath: String
    /// A PostgreSQL database to keep the data in instead of ``databasePath``, for several
    /// instances sharing one database; `nil` (the default) keeps SQLite. The schema is
    /// migrated on start.
    public var databaseURL: PostgresURL? = nil
    /// The connections a PostgreSQL database keeps (when ``databaseURL`` is set).
    public var postgres = PostgresGatewayDatabase.Configuration()
    /// The key card fingerprints are made with, kept apart from the database (which records
    /// only its id). Every start on a database, and every instance on a PostgreSQL one, needs
    /// the same key: a start with another is refused (``GatewayStartupError/fingerprintKeyMismatch``).
    ///
    /// `nil` with no ``fingerprintKeyFile``: ``SandboxGateway/start(_:)`` uses a random key made
    /// once per process (and puts it in its ``GatewayEnvironment/configuration``), which suits a
    /// database that lives no longer than the process, as in tests and the demo; another process
    /// serving that database is refused. Tools that do not fingerprint cards
    /// (``SandboxGateway/addMerchant(_:name:)``, ``SandboxGateway/publishUpdate(_:_:content:)``)
    /// use no key then.
    public var fingerprintKey: CardFingerprintKey? = nil
    /// Keys fingerprints were made with before ``fingerprintKey`` (a rotation): a database
    /// whose recorded key is one of them is accepted and records ``fingerprintKey`` from then on.
    /// Fingerprints made before stop matching the new ones (duplicate check, spend limits).
    public var previousFingerprintKeys: [CardFingerprintKey] = []
    /// A key file to use when ``fingerprintKey`` is `nil`: read if it exists, else created
    /// (0600, its folders 0700) with the key an older database still holds, or a new random
    /// key. Keep it outside the database's folder. `mpos gateway` passes
    /// `~/.config/mpos/fingerprint.key` here.
    public var fingerprintKeyFile: String? = nil
    /// The gateway's idea of now. Inject a ``ManualDateSource`` in tests to move time
    /// without sleeping (token expiry, lockout, key retention).
    public var now: @Sendable () -> Date
    /// The largest request body accepted, in bytes (64 KiB by default); larger bodies get
    /// 413 with code 4130.
    public var bodyLimit: Int
    /// How long idempotency keys and their stored responses are kept; never less than
    /// 24 hours whatever is set here.
    public var idempotencyKeyRetention: TimeInterval
    /// How long a graceful shutdown waits for the requests in flight before cancelling
    /// them (10 seconds).
    public var shutdownGracePeriod: Duration = .seconds(10)
    /// How long an access token lives without use (sliding), 15 minutes by default.
    public var sessionLifetime: TimeInterval
    /// How long a client token lives by default, 15 minutes.
    public var clientTokenLifetime: TimeInterval
    /// Failed logins in a row that lock a user (10, the most PCI DSS 8.3.4 allows).
    public var maximumFailedLogins: Int
    /// How long a locked user stays locked (30 minutes, the least PCI DSS 8.3.4 allows).
    public var lockoutDuration: TimeInterval
    /// The addresses of reverse proxies in front of the gateway (nginx, a load balancer):
    /// for a connection from one of them, the client's address is the last one in
    /// `X-Forwarded-For` that is not a trusted proxy. Empty by default, so a client cannot
    /// pick its own address by sending the header.
    public var trustedProxies: Set<String> = []
    /// PBKDF2-HMAC-SHA256 iterations for new password hashes. The default suits a server;
    /// tests may lower it (stored hashes keep their own count).
    public var passwordHashRounds: Int
    /// Where `GET /v1/openapi.yaml` reads the document; `nil` for the package's
    /// `docs/gateway-openapi.yaml`.
    public var openAPIDocumentPath: String?
    /// The server's log level (`.info` by default; requests are not logged with card data
    /// at any level).
    public var logLevel: Logger.Level
    /// Extra routes registered after every domain's, for embedding tools and tests (such
    /// as a probe route that exercises ``IdempotencyStore``); `nil` for none.
    public var additionalRoutes: (@Sendable (Router<GatewayRequestContext>, GatewayEnvironment) -> Void)?
    /// Whether concurrent payment writes share one database transaction and one fsync
    /// (`true` by default); `false` gives each write its own transaction, to measure what
    /// grouping buys.
    public var groupCommit: Bool
    /// The certificate and key to serve HTTPS with; `nil` (the default) serves plain HTTP.
    public var tls: SandboxGatewayTLS? = nil
    /// Whether the gateway may serve plain HTTP on an address other hosts can reach (`false`
    /// by default): without ``tls``, ``SandboxGateway/start(_:)`` then refuses any ``host``
    /// but loopback (127.0.0.0/8, `::1`, `localhost`) with
    /// ``GatewayStartupError/plainHTTPBeyondLoopback``, as passwords, tokens and card data
    /// would cross the network in clear.
    public var allowsInsecureHTTP = false
    /// How long the gateway waits on a slow or idle client before closing its connection.
    public var connectionTimeouts = GatewayConnectionTimeouts()
    /// Where webhooks and payment callbacks may be posted, checked on the addresses a URL's
    /// host resolves to when it is configured and before each delivery: public addresses,
    /// plus loopback while ``host`` is a loopback address, plus the scopes allowed
    /// (`mpos gateway serve --allow-webhooks-to loopback|private`). Link-local and cloud
    /// metadata addresses are refused whatever is allowed.
    public var webhookDestinations = WebhookDestinationPolicy()
    /// How long one webhook delivery may take, connection and answer included (10 seconds);
    /// past it the attempt fails with class `timeout`.
    public var webhookTimeout: Duration = .seconds(10)
    /// The clock that paces webhook retries (1 s, 2 s, 4 s … after failed deliveries).
    /// Tests inject a manual clock to play the backoff without waiting.
    public var webhookClock: any Clock<Duration> = ContinuousClock()
    /// How often the gateway looks in the webhook outbox for events due that no commit of
    /// this instance announced (retries left by a stopped process or another instance), on
    /// ``webhookOutboxClock``; `nil` leaves them to the next start and to this instance's
    /// own commits.
    public var webhookOutboxInterval: Duration? = .seconds(1)
    /// The clock that paces ``webhookOutboxInterval``.
    public var webhookOutboxClock: any Clock<Duration> = ContinuousClock()
    /// How long, on ``now``, an instance holds a webhook event it claimed before another may
    /// take it over (30 seconds); an instance retrying an event keeps it this long past the
    /// retry's due time.
    public var webhookClaimLease: TimeInterval = 30
    /// How long, on ``now``, a refund accepted as received waits before the gateway decides
    /// it (merchants with asynchronous refunds on), 5 seconds by default.
    public var asynchronousRefundDelay: TimeInterval = 5
    /// How often the gateway looks for pending refunds due for a decision, on
    /// ``refundSettlementClock``; `nil` leaves them to ``RunningGateway/settlePendingRefunds()``
    /// and the next start.
    public var refundSettlementInterval: Duration? = .seconds(1)
    /// The clock that paces ``refundSettlementInterval``.
    public var refundSettlementClock: any Clock<Duration> = ContinuousClock()

    /// The shortest idempotency key retention the gateway allows: 24 hours.
    public static let minimumKeyRetention: TimeInterval = 24 * 60 * 60

    /// Creates a configuration; every parameter has a sandbox default.
    public init(
        host: String = "127.0.0.1",
        port: Int = 0,
        databasePath: String = "mpos-sandbox.sqlite",
        now: @escaping @Sendable () -> Date = { Date() },
        bodyLimit: Int = 64 * 1024,
        idempotencyKeyRetention: TimeInterval = 24 * 60 * 60,
        sessionLifetime: TimeInterval = 15 * 60,
        clientTokenLifetime: TimeInterval = 15 * 60,
        maximumFailedLogins: Int = 10,
        lockoutDuration: TimeInterval = 30 * 60,
        passwordHashRounds: Int = 100_000,
        openAPIDocumentPath: String? = nil,
        logLevel: Logger.Level = .info,
        additionalRoutes: (@Sendable (Router<GatewayRequestContext>, GatewayEnvironment) -> Void)? = nil,
        groupCommit: Bool = true
    ) {
        self.host = host
        self.port = port
        self.databasePath = databasePath
        self.now = now
        self.bodyLimit = bodyLimit
        self.idempotencyKeyRetention = idempotencyKeyRetention
        self.sessionLifetime = sessionLifetime
        self.clientTokenLifetime = clientTokenLifetime
        self.maximumFailedLogins = maximumFailedLogins
        self.lockoutDuration = lockoutDuration
        self.passwordHashRounds = passwordHashRounds
        self.openAPIDocumentPath = openAPIDocumentPath
        self.logLevel = logLevel
        self.additionalRoutes = additionalRoutes
        self.groupCommit = groupCommit
    }

    /// Whether this configuration serves plain HTTP on an address other hosts can reach:
    /// no ``tls`` and a ``host`` other than loopback. The gateway starts so only with
    /// ``allowsInsecureHTTP``.
    public var servesPlainHTTPBeyondLoopback: Bool {
        tls == nil && !LoopbackHost.contains(host)
    }

    /// The retention actually applied: the configured one, at least 24 hours.
    public var effectiveKeyRetention: TimeInterval {
        max(idempotencyKeyRetention, Self.minimumKeyRetention)
    }
}

/// A settable clock for tests: `now` returns the stored date until ``advance(by:)`` or
/// ``set(_:)`` moves it.
public final class ManualDateSource: Sendable {
    private let current: Mutex<Date>

    /// Starts at `start`.
    public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        self.current = Mutex(start)
    }

    /// The current date.
    public func now() -> Date {
        current.withLock { $0 }
    }

    /// Moves the clock forward (or back, with a negative interval).
    public func advance(by interval: TimeInterval) {
        current.withLock { $0 += interval }
    }

    /// Sets the clock.
    public func set(_ date: Date) {
        current.withLock { $0 = date }
    }

    /// A closure for ``SandboxGatewayConfiguration/now``.
    public var dateProvider: @Sendable () -> Date { { [self] in self.now() } }
}
