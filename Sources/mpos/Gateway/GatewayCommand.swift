import ArgumentParser
import Dispatch
import Foundation
import SandboxGateway

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `mpos gateway …`
struct GatewayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gateway",
        abstract: "Run the sandbox payment gateway.",
        subcommands: [
            GatewayServeCommand.self, GatewayMigrateCommand.self, GatewayMerchantCommand.self,
            GatewayPublishUpdateCommand.self,
        ]
    )
}

/// `mpos gateway serve [--host H] [--port N] [--db PATH | --database URL]
/// [--tls-certificate PEM --tls-key PEM] [--insecure-http]
/// [--idle-timeout S] [--request-header-timeout S] [--request-body-timeout S]
/// [--allow-webhooks-to loopback|private]`:
/// runs the sandbox gateway until SIGINT or SIGTERM.
struct GatewayServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the sandbox gateway over HTTP or HTTPS until interrupted.",
        discussion: """
            On the first start with a new database the gateway creates a sandbox merchant and \
            prints its user, password and API key once: only their hashes are stored. Then it \
            prints 'gateway instance ID' (created with the database, the same on every start) and \
            'listening on http://HOST:PORT', and serves until SIGINT (Ctrl-C) or SIGTERM.
            With --tls-certificate and --tls-key it serves HTTPS ('listening on https://…') and \
            sends Strict-Transport-Security. On an address other than loopback it serves only \
            HTTPS, unless --insecure-http allows plain HTTP (with a warning). Connections whose \
            request head or body arrives too slowly, or that sit idle, are closed \
            (--request-header-timeout, --request-body-timeout, --idle-timeout).
            Card fingerprints are keyed with a key kept apart from the database: \
            MPOS_FINGERPRINT_KEY (64 hex digits), else --fingerprint-key FILE, else \
            ~/.config/mpos/fingerprint.key (created 0600 when missing, with the key an older \
            database held). Every start on a database needs the same key; to rotate, give the \
            new key with --previous-fingerprint-key OLD-FILE once.
            With --database postgres://USER@HOST:PORT/DB it keeps its data in PostgreSQL, where \
            several instances can serve one database behind a load balancer: the first to \
            start on an empty database prints the credentials, the others none. The password \
            comes from the URL or from MPOS_DATABASE_PASSWORD. GET /health answers 503 while \
            the database is unreachable.
            Webhooks and payment callbacks go to public addresses only, plus loopback while --host is \
            a loopback address; --allow-webhooks-to loopback,private lets them reach those ranges too. \
            Link-local and cloud metadata addresses are refused whatever is allowed.

            Examples:
              mpos gateway serve
              mpos gateway serve --port 8080 --db /tmp/sandbox.sqlite
              mpos gateway serve --tls-certificate cert.pem --tls-key key.pem
              mpos gateway serve --host 0.0.0.0 --tls-certificate cert.pem --tls-key key.pem
              mpos gateway serve --clock-offset 600
              mpos gateway serve --session-lifetime 60
              mpos gateway serve --allow-webhooks-to private
              MPOS_DATABASE_PASSWORD=secret mpos gateway serve --database postgres://mpos@db:5432/sandbox
            """
    )

    @Option(name: .long, help: "Address to bind.")
    var host = "127.0.0.1"

    @Option(name: .long, help: "Port to bind; 0 picks a free one.")
    var port = 8080

    @OptionGroup var storage: GatewayDatabaseOptions

    @OptionGroup var webhooks: GatewayWebhookOptions

    @Flag(
        inversion: .prefixedNo,
        help: "Share one database transaction among concurrent payment writes (--no-group-commit gives each its own).")
    var groupCommit = true

    @Option(name: .long, help: "PEM file of the certificate (chain) to serve HTTPS with; needs --tls-key.")
    var tlsCertificate: String?

    @Option(name: .long, help: "PEM file of the private key of --tls-certificate.")
    var tlsKey: String?

    @Flag(
        help: ArgumentHelp(
            "Serve plain HTTP on an address other than loopback (without it the gateway refuses to; "
                + "passwords, tokens and card data then cross the network in clear)."))
    var insecureHTTP = false

    @Option(
        name: .customLong("trusted-proxy"),
        help: ArgumentHelp(
            "The address of a reverse proxy in front of the gateway, such as nginx (repeatable): for its "
                + "connections the client is the last address in X-Forwarded-For that is not a trusted proxy. "
                + "Failed logins are slowed per client address.",
            valueName: "address"))
    var trustedProxies: [String] = []

    @Option(
        help: ArgumentHelp(
            "Close a connection left this long without a request (keep-alive).",
            valueName: "seconds"))
    var idleTimeout: Double = 75

    @Option(
        help: ArgumentHelp(
            "Close a connection whose request line and headers take longer than this to arrive.",
            valueName: "seconds"))
    var requestHeaderTimeout: Double = 10

    @Option(
        help: ArgumentHelp(
            "Close a connection whose request body takes longer than this to arrive.",
            valueName: "seconds"))
    var requestBodyTimeout: Double = 30

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "Run the gateway's clock this many seconds ahead of this machine's (negative: behind), to see "
                + "the SDK refuse payments on a device whose clock is off the gateway's (LOCAL_TIME_TAMPERING).",
            valueName: "seconds"))
    var clockOffset = 0

    @Option(
        name: .long,
        help: ArgumentHelp(
            "How long a login's session lasts without use (each request extends it); 900 by default. "
                + "Shorter sessions show a terminal renewing its session by itself.",
            valueName: "seconds"))
    var sessionLifetime = 900

    func validate() throws {
        guard (0...65535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535.")
        }
        guard (tlsCertificate == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-certificate and --tls-key go together.")
        }
        guard (-366 * 86_400...366 * 86_400).contains(clockOffset) else {
            throw ValidationError("--clock-offset must be within a year either way.")
        }
        guard (1...30 * 86_400).contains(sessionLifetime) else {
            throw ValidationError("--session-lifetime must be between 1 second and 30 days.")
        }
        for proxy in trustedProxies where WebhookAddress(proxy) == nil {
            throw ValidationError("--trusted-proxy '\(proxy)' is not an IP address, such as 127.0.0.1 or ::1.")
        }
        for (name, seconds) in [
            ("--idle-timeout", idleTimeout), ("--request-header-timeout", requestHeaderTimeout),
            ("--request-body-timeout", requestBodyTimeout),
        ] where !(0.1...86_400).contains(seconds) {
            throw ValidationError("\(name) must be between 0.1 seconds and a day.")
        }
    }

    mutating func run() async throws {
        // This process only serves the gateway, so it takes the allocator settings a server wants.
        SandboxGateway.tuneProcessAllocatorForServing()
        var configuration = SandboxGatewayConfiguration(
            host: host, port: port, logLevel: .warning, groupCommit: groupCommit)
        try storage.apply(to: &configuration, defaultFile: "./mpos-sandbox.sqlite")
        configuration.sessionLifetime = TimeInterval(sessionLifetime)
        configuration.allowsInsecureHTTP = insecureHTTP
        configuration.trustedProxies = Set(trustedProxies.compactMap { WebhookAddress($0)?.description })
        configuration.connectionTimeouts = GatewayConnectionTimeouts(
            idle: .seconds(idleTimeout), requestHeader: .seconds(requestHeaderTimeout),
            requestBody: .seconds(requestBodyTimeout))
        configuration.webhookDestinations = try webhooks.policy()
        if clockOffset != 0 {
            let offset = TimeInterval(clockOffset)
            configuration.now = { Date().addingTimeInterval(offset) }
        }
        if let tlsCertificate, let tlsKey {
            configuration.tls = try SandboxGatewayTLS(certificatePEMFile: tlsCertificate, privateKeyPEMFile: tlsKey)
        }
        // Catch the signals before binding, so a signal sent as soon as the port is
        // printed still shuts down cleanly.
        let signals = TerminationSignals()
        let gateway: RunningGateway
        do {
            gateway = try await SandboxGateway.start(configuration)
        } catch let error as GatewayStartupError where error == .plainHTTPBeyondLoopback {
            throw CLIFailure(
                "refusing to serve plain HTTP on \(host), an address other hosts can reach: give "
                    + "--tls-certificate and --tls-key, bind --host 127.0.0.1, or add --insecure-http")
        }
        if configuration.servesPlainHTTPBeyondLoopback {
            CLIOutput.error(
                "warning: serving plain HTTP on \(host) (--insecure-http): passwords, tokens and card data "
                    + "cross the network in clear; use --tls-certificate and --tls-key")
        }
        if let credentials = gateway.credentials {
            say(GatewayServeOutput.credentials(credentials, database: storage.shown))
        }
        say("gateway instance \(gateway.instanceID)")
        say("listening on \(gateway.baseURL.absoluteString)")
        let signal = await signals.wait()
        say("received \(signal), shutting down")
        await gateway.shutdown()
        say("stopped")
    }

    /// Writes a line to standard output unbuffered, so a supervising process sees it at once.
    private func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

/// What `mpos gateway serve` prints.
enum GatewayServeOutput {
    /// The bootstrap credentials block, shown once.
    static func credentials(_ credentials: SandboxCredentials, database: String) -> String {
        """
        created sandbox merchant in \(database) (shown once; only hashes are stored):
          merchant  \(credentials.merchantID)
          user      \(credentials.user)
          password  \(credentials.password)
          api key   \(credentials.apiKey)
          e-mail    \(credentials.email)
        """
    }
}

/// `mpos gateway migrate --database URL`: applies the schema's migrations without serving.
struct GatewayMigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply the gateway's schema migrations to a PostgreSQL database without serving.",
        discussion: """
            Prints each migration it applies ('applied NAME'), or 'up to date'. Instances that \
            start on the database migrate it too, one at a time; run this ahead of a rolling \
            deploy so that no instance starts on an old schema. A SQLite file (--db) is migrated \
            whenever a gateway opens it.

            Example:
              MPOS_DATABASE_PASSWORD=secret mpos gateway migrate --database postgres://mpos@db:5432/sandbox
            """
    )

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The PostgreSQL database (the password in the URL or in MPOS_DATABASE_PASSWORD).",
            valueName: "postgres://USER@HOST:PORT/DB"))
    var database: String

    @OptionGroup var key: FingerprintKeyOptions

    func validate() throws {
        do { _ = try PostgresURL(database) } catch { throw ValidationError("--database: \(error)") }
    }

    mutating func run() async throws {
        var configuration = SandboxGatewayConfiguration(logLevel: .warning)
        configuration.databaseURL = try PostgresURL(database)
        try key.apply(to: &configuration)
        let applied: [String]
        do {
            applied = try await SandboxGateway.migrate(configuration)
        } catch let error as GatewayStartupError {
            throw error
        } catch {
            throw CLIFailure("--database \(configuration.databaseURL!.description): \(error)")
        }
        if applied.isEmpty {
            CLIOutput.line("up to date")
        }
        for name in applied { CLIOutput.line("applied \(name)") }
    }
}
