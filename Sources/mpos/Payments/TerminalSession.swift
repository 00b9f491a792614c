import Foundation
import MPOSCore
import MPOSKit
import MPOSKitNIO
import NIOSSL
import ReaderLink
import ReaderLinkTCP
import ReaderSimulator
import SandboxCards
import SandboxGateway

/// A logged-in ``PaymentTerminal`` for one command, and whatever was started for it (an
/// embedded gateway, a simulated reader, a temporary folder, the journal's lock), shut down by
/// ``close()``.
final class TerminalSession {
    let terminal: PaymentTerminal
    private let directory: URL
    private var lock: JournalLock?
    private var gateway: RunningGateway?
    private var readerServer: TCPReaderServer?
    private var serving: Task<Void, Never>?

    private init(terminal: PaymentTerminal, directory: URL) {
        self.terminal = terminal
        self.directory = directory
    }

    /// Runs `body` with a session opened from `options`, and closes the session whatever
    /// happens. The journal stays locked until then, so `body` should show the result.
    ///
    /// - Parameters:
    ///   - needsReader: whether to connect a reader (card-present operations).
    ///   - showEvents: whether to print the reader's prompts as they come.
    ///   - paying: whether the command takes or changes a payment; one that does not never
    ///     refuses because of the journal (see ``JournalChoice``).
    static func with<T>(
        _ options: TerminalOptions, needsReader: Bool, showEvents: Bool, reconnectable: Bool = false,
        offlineFallback: Bool = false, paying: Bool = true, _ body: (PaymentTerminal) async throws -> T
    ) async throws -> T {
        let session = try await open(
            options, needsReader: needsReader, showEvents: showEvents, reconnectable: reconnectable,
            offlineFallback: offlineFallback, paying: paying)
        do {
            let value = try await body(session.terminal)
            await session.close()
            return value
        } catch {
            await session.close()
            throw error
        }
    }

    private static func open(
        _ options: TerminalOptions, needsReader: Bool, showEvents: Bool, reconnectable: Bool, offlineFallback: Bool,
        paying: Bool
    ) async throws -> TerminalSession {
        // Check every argument before starting anything.
        let secretHex = options.secret ?? SimulatedReaderConfiguration.sandboxSecretHex
        let secret: SharedSecret
        do { secret = try SharedSecret(hex: secretHex) } catch {
            throw CLIFailure("the shared secret is invalid: it must be 64 hex characters (32 bytes)")
        }
        var readerAddress: (host: String, port: Int)?
        if let reader = options.reader {
            do { readerAddress = try ReaderAddress.parse(reader) } catch {
                throw CLIFailure("--reader must be HOST:PORT, e.g. 127.0.0.1:4000")
            }
        } else if needsReader, SandboxCards.card(id: options.card) == nil {
            throw CLIFailure(
                "unknown card '\(options.card)'; known: \(SandboxCards.all.map(\.id).joined(separator: ", "))"
            )
        }
        let (remote, tls) = try gatewayOptions(options)

        var journalPath: String?
        if let remote {
            let note: String?
            let probe = NIOGatewayTransport(tlsConfiguration: tls)
            do {
                (journalPath, note) = try await JournalChoice.resolve(
                    options, url: remote.url, credentials: remote.credentials, transport: probe, paying: paying)
            } catch {
                await probe.shutdown()
                throw error
            }
            await probe.shutdown()
            if let note { CLIOutput.error(note) }
        } else {
            journalPath = try JournalLocation.explicit(options)
        }
        var lock: JournalLock?
        if let journalPath { lock = try await JournalLock.acquire(journalPath: journalPath) }
        do {
            return try await open(
                options, needsReader: needsReader, showEvents: showEvents, reconnectable: reconnectable,
                offlineFallback: offlineFallback, secret: secret, readerAddress: readerAddress, remote: remote, tls: tls, journalPath: journalPath, lock: lock)
        } catch {
            lock?.release()
            throw error
        }
    }

    /// The gateway `options` name (its URL and credentials, checked) and the TLS settings to
    /// reach it; nil for the gateway when none is given (the embedded sandbox).
    ///
    /// - Throws: `CLIFailure` for a URL that is not http(s), a certificate that is not PEM, or
    ///   credentials missing.
    static func gatewayOptions(
        _ options: TerminalOptions
    ) throws -> (remote: (url: URL, credentials: GatewayCredentials)?, tls: TLSConfiguration) {
        var remote: (url: URL, credentials: GatewayCredentials)?
        var tls = TLSConfiguration.makeClientConfiguration()
        if let gateway = options.gateway {
            guard let url = URL(string: gateway), let scheme = url.scheme,
                ["http", "https"].contains(scheme), url.host != nil
            else { throw CLIFailure("--gateway must be an http(s) URL, e.g. http://127.0.0.1:8080") }
            if let certificate = options.gatewayCertificate {
                do {
                    tls.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMFile(certificate))]
                } catch { throw CLIFailure("--gateway-certificate \(certificate) is not a PEM certificate") }
            }
            _ = try environment(options, url: url)
            if let token = try options.resolveClientToken() {
                remote = (url, .clientToken { token })
            } else if let user = options.user {
                guard let password = try options.password.resolve(user: user) else {
                    throw CLIFailure("--gateway needs the password of --user: " + PasswordOptions.missing)
                }
                remote = (url, .login(user: user, password: password))
            } else {
                throw CLIFailure(
                    "--gateway needs --user and its password, or a client token (--client-token-file or "
                        + "MPOS_CLIENT_TOKEN)")
            }
        } else if let name = options.environment, EnvironmentName(named: name) != .sandbox {
            _ = try environment(options, url: nil)
            throw CLIFailure("--environment \(name) needs --gateway: the embedded gateway is a sandbox")
        }

        return (remote, tls)
    }

    /// The environment `--environment` names at `url` (nil when not given).
    ///
    /// - Throws: `CLIFailure` for an unknown name or a production URL that is not https.
    static func environment(_ options: TerminalOptions, url: URL?) throws -> PaymentEnvironment? {
        guard let name = options.environment else { return nil }
        do { return try PaymentEnvironment(named: name, url: url) } catch {
            throw CLIFailure("--environment: \(error.message)")
        }
    }

    /// Starts what `options` asks for, with every argument checked and the journal locked.
    private static func open(
        _ options: TerminalOptions, needsReader: Bool, showEvents: Bool, reconnectable: Bool, offlineFallback: Bool,
        secret: SharedSecret,
        readerAddress: (host: String, port: Int)?, remote: (url: URL, credentials: GatewayCredentials)?,
        tls: TLSConfiguration, journalPath: String?, lock: JournalLock?
    ) async throws -> TerminalSession {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mpos-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var embeddedGateway: RunningGateway?
        let url: URL
        let credentials: GatewayCredentials
        if let remote {
            (url, credentials) = remote
        } else {
            let started: RunningGateway
            do {
                started = try await SandboxGateway.start(
                    SandboxGatewayConfiguration(
                        port: 0, databasePath: directory.appendingPathComponent("gateway.sqlite").path,
                        passwordHashRounds: 1_000, logLevel: .critical))
            } catch {
                try? FileManager.default.removeItem(at: directory)
                throw CLIFailure("the embedded sandbox gateway did not start: \(error)")
            }
            embeddedGateway = started
            guard let bootstrap = started.credentials else {
                await started.shutdown()
                try? FileManager.default.removeItem(at: directory)
                throw CLIFailure("the embedded sandbox created no credentials")
            }
            url = started.baseURL
            credentials = .login(user: bootstrap.user, password: bootstrap.password)
        }

        let terminal: PaymentTerminal
        let named: PaymentEnvironment?
        do { named = try environment(options, url: url) } catch {
            await embeddedGateway?.shutdown()
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        do {
            let journal = journalPath ?? directory.appendingPathComponent("journal.sqlite").path
            if let named {
                terminal = try PaymentTerminal(
                    environment: named, credentials: credentials, journalPath: journal,
                    transport: NIOGatewayTransport(tlsConfiguration: tls))
            } else {
                terminal = try PaymentTerminal(
                    environment: url, credentials: credentials, journalPath: journal,
                    transport: NIOGatewayTransport(tlsConfiguration: tls))
            }
        } catch {
            await embeddedGateway?.shutdown()
            try? FileManager.default.removeItem(at: directory)
            throw CLIFailure("the payment journal\(journalPath.map { " \($0)" } ?? "") could not be opened: \(error.message)")
        }
        let session = TerminalSession(terminal: terminal, directory: directory)
        session.gateway = embeddedGateway
        session.lock = lock
        do {
            if let since = lock?.unshownSince {
                // A run killed after its payment ended but before it printed the result.
                for attempt in try await terminal.recovery.journaledAttempts(since: since) {
                    if let line = JournalReport.line(unshown: attempt) { CLIOutput.error(line) }
                }
            }
            if showEvents {
                terminal.events.addHandler([.status, .card, .prompt, .transaction]) { event in
                    if let line = DemoCommand.describe(event) { CLIOutput.line("  · \(line)") }
                }
            }
            await terminal.setSignatureHandler { _ in
                if showEvents { CLIOutput.line("  · signature checked by the merchant: accepted") }
                return .accept
            }
            // Login finishes what earlier runs left open, before this command's own payment.
            let recovered: [RecoveredAttempt]
            do { recovered = try await terminal.login(offlineFallback: offlineFallback) } catch {
                if error.code == MPOSError.Code.journalOwnedElsewhere {
                    throw CLIFailure("\(error.message) Give --journal PATH with another file to pay at \(url.absoluteString).")
                }
                throw CLIFailure("login at \(url.absoluteString) failed: \(error.message)")
            }
            for attempt in recovered { CLIOutput.error(JournalReport.line(attempt)) }
            if await terminal.status.isOfflineOnly {
                CLIOutput.error("the gateway at \(url.absoluteString) cannot be reached: offline-only, on the last online session")
            }
            lock?.earlierRunsTold()
            if remote != nil, options.journal == nil {
                for line in JournalChoice.othersWithUnfinishedWork(than: journalPath) { CLIOutput.error(line) }
            }
            if needsReader {
                let (host, port): (String, Int)
                if let readerAddress {
                    (host, port) = readerAddress
                } else {
                    (host, port) = try await session.startReader(card: options.card, secret: secret)
                }
                do {
                    if reconnectable {
                        // A reader that restarts (an update) is reached again through the same address.
                        try await terminal.reader.connect(secret: secret) {
                            try await TCPTransport.connect(host: host, port: port)
                        }
                    } else {
                        let link: TCPTransport
                        do { link = try await TCPTransport.connect(host: host, port: port) } catch {
                            throw CLIFailure("cannot connect to the reader at \(host):\(port): \(error)")
                        }
                        try await terminal.reader.connect(transport: link, secret: secret)
                    }
                } catch let error as MPOSError {
                    if error.code == MPOSError.Code.readerInUse { throw ReaderAddress.inUse("\(host):\(port)", error) }
                    // Only a wrong secret points at --secret; a dropped link points at the link.
                    let hint = error.code == MPOSError.Code.readerSharedSecretMismatch ? " (check --secret)" : ""
                    throw CLIFailure("the reader at \(host):\(port) did not pair\(hint): \(error.message)")
                }
            }
        } catch {
            await session.close()
            throw error
        }
        return session
    }

    /// Serves a simulated reader on 127.0.0.1 (a free port) presenting `card`.
    private func startReader(card: String, secret: SharedSecret) async throws -> (String, Int) {
        var configuration = SimulatedReaderConfiguration(secret: secret)
        configuration.cardID = card
        let reader = SimulatedReader(configuration: configuration)
        let server: TCPReaderServer
        do { server = try await TCPReaderServer.bind(host: "127.0.0.1", port: 0) } catch {
            throw CLIFailure("the embedded reader could not listen on 127.0.0.1: \(error)")
        }
        readerServer = server
        let connections = server.connections
        // Unstructured: the embedded reader serves while the command runs; `close()` cancels it.
        serving = Task { await serveEach(connections, with: reader) }
        return ("127.0.0.1", server.port)
    }

    /// Disconnects the reader and stops what the session started.
    func close() async {
        await terminal.disconnect()
        if let readerServer { await readerServer.close() }
        serving?.cancel()
        if let gateway { await gateway.shutdown() }
        try? FileManager.default.removeItem(at: directory)
        lock?.release()
        lock = nil
    }
}
