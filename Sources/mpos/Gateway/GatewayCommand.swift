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
        subcommands: [GatewayServeCommand.self, GatewayMerchantCommand.self, GatewayPublishUpdateCommand.self]
    )
}

/// `mpos gateway serve [--host H] [--port N] [--db PATH] [--tls-certificate PEM --tls-key PEM]`:
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
            With --tls-certificate and --tls-key it serves HTTPS ('listening on https://…').

            Examples:
              mpos gateway serve
              mpos gateway serve --port 8080 --db /tmp/sandbox.sqlite
              mpos gateway serve --tls-certificate cert.pem --tls-key key.pem
              mpos gateway serve --clock-offset 600
              mpos gateway serve --session-lifetime 60
            """
    )

    @Option(name: .long, help: "Address to bind.")
    var host = "127.0.0.1"

    @Option(name: .long, help: "Port to bind; 0 picks a free one.")
    var port = 8080

    @Option(name: .long, help: "SQLite database file (created if missing).")
    var db = "./mpos-sandbox.sqlite"

    @Flag(
        inversion: .prefixedNo,
        help: "Share one database transaction among concurrent payment writes (--no-group-commit gives each its own).")
    var groupCommit = true

    @Option(name: .long, help: "PEM file of the certificate (chain) to serve HTTPS with; needs --tls-key.")
    var tlsCertificate: String?

    @Option(name: .long, help: "PEM file of the private key of --tls-certificate.")
    var tlsKey: String?

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
    }

    mutating func run() async throws {
        // This process only serves the gateway, so it takes the allocator settings a server wants.
        SandboxGateway.tuneProcessAllocatorForServing()
        var configuration = SandboxGatewayConfiguration(
            host: host, port: port, databasePath: db, logLevel: .warning, groupCommit: groupCommit)
        configuration.sessionLifetime = TimeInterval(sessionLifetime)
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
        let gateway = try await SandboxGateway.start(configuration)
        if let credentials = gateway.credentials {
            say(GatewayServeOutput.credentials(credentials, database: db))
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
