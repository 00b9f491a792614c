import Foundation
import GRDB
import GatewayAPI
import MPOSCore
import MPOSKitNIO
import MPOSTestSupport
import ReaderLink
import ReaderLinkTCP
import ReaderSimulator
import SandboxGateway
import Synchronization
import Testing

@testable import MPOSKit

/// A shop's counter over a simulated week: the sandbox gateway on a SQLite file in a temporary
/// folder and an ephemeral loopback port, a simulated reader served over TCP, and a terminal
/// with its journal. One manual clock is the time of all of them: the gateway's `now`, the
/// terminal's timeouts and retries, its device's date (the device checks, update deadlines,
/// the offline window) and the date the reader's cards sign (9A). Nothing sleeps: the test
/// moves the clock from one event of the week to the next.
final class CounterWeek: Sendable {
    /// Monday 1 March 2027, 00:00 UTC: offset zero of the clock.
    static let monday = Date(timeIntervalSince1970: 1_803_859_200)

    let clock = ManualClock()
    let directory: URL
    let credentials: SandboxCredentials
    let reader: SimulatedReader
    let server: TCPReaderServer
    private let configuration: SandboxGatewayConfiguration
    private let running: Mutex<RunningGateway?>
    private let serving: Task<Void, Never>

    var journalPath: String { directory.appendingPathComponent("journal.sqlite").path }
    var databasePath: String { configuration.databasePath }
    var baseURL: URL { URL(string: "http://127.0.0.1:\(configuration.port)")! }

    /// The week's date now.
    var now: Date { Self.monday.addingTimeInterval(Self.seconds(clock.now.offset)) }

    /// - Parameter sessionLifetime: the gateway's session lifetime (`--session-lifetime`).
    init(sessionLifetime: TimeInterval) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mposkit-week-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let clock = self.clock
        var configuration = SandboxGatewayConfiguration(
            port: 0, databasePath: directory.appendingPathComponent("gateway.sqlite").path,
            now: { CounterWeek.monday.addingTimeInterval(CounterWeek.seconds(clock.now.offset)) },
            sessionLifetime: sessionLifetime, passwordHashRounds: 1_000, logLevel: .error)
        let gateway = try await SandboxGateway.start(configuration)
        // Started again on the same port after an outage, so the terminal finds it where it was.
        configuration.port = gateway.port
        self.configuration = configuration
        running = Mutex(gateway)
        credentials = try #require(gateway.credentials)

        let reader = SimulatedReader(
            configuration: SimulatedReaderConfiguration(secret: Sandbox.secret),
            now: { CounterWeek.monday.addingTimeInterval(CounterWeek.seconds(clock.now.offset)) })
        self.reader = reader
        server = try await TCPReaderServer.bind(host: "127.0.0.1", port: 0)
        let connections = server.connections
        serving = Task {
            for await link in connections {
                Task { await reader.serve(link) }
            }
        }
    }

    /// A terminal on the week's clock, logged in and connected so that it reaches the reader
    /// again after the reader restarts (as an update needs).
    func openTerminal() async throws -> PaymentTerminal {
        let terminal = try PaymentTerminal(
            environment: baseURL, credentials: .login(user: credentials.user, password: credentials.password),
            journalPath: journalPath, transport: NIOGatewayTransport(), clock: clock,
            deviceChecks: DeviceChecks(probe: CounterDevice(clock: clock)))
        // The cashier compares each signature with the card's and accepts it.
        await terminal.setSignatureHandler { _ in .accept }
        _ = try await run { try await terminal.login() }
        let port = server.port
        try await run {
            try await terminal.reader.connect(secret: Sandbox.secret) {
                try await TCPTransport.connect(host: "127.0.0.1", port: port)
            }
        }
        return terminal
    }

    // MARK: - Time

    /// Moves the clock on to `date`, then waits until the reader link's keep-alive, woken by the
    /// jump, has pinged the reader and sleeps again: the next jump must not find its ping
    /// unanswered (the link would close).
    func advance(to date: Date, terminal: PaymentTerminal) async {
        let step = date.timeIntervalSince(now)
        precondition(step >= 15, "the week moves on by at least the keep-alive interval")
        clock.advance(by: .milliseconds(Int64((step * 1000).rounded())))
        guard await terminal.reader.link != nil else { return }
        await clock.waitForSleeper(until: clock.now.offset + CardReaderLink.keepAlive)
    }

    /// Runs `operation` as the app would, while letting the short pauses it takes on the clock
    /// pass (the retry back-off from 0.25 s, a reconnect's pause): whenever the earliest sleeper
    /// waits for no longer than what is left of `budget`, the clock moves on to it. The budget
    /// stays under the reader link's request timeout (10 s), so a request to the reader never
    /// times out while the reader works in real time; the keep-alive (15 s) is left alone too.
    func run<T: Sendable>(
        budget: Duration = .seconds(5), _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let done = Mutex(false)
        let task = Task {
            defer { done.withLock { $0 = true } }
            return try await operation()
        }
        var left = budget
        while !done.withLock({ $0 }) {
            if let next = clock.nextDeadline {
                let wait = clock.now.duration(to: next)
                if wait > .zero, wait <= left {
                    clock.advance(by: wait)
                    left -= wait
                }
            }
            await Task.yield()
        }
        return try await task.value
    }

    static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }

    // MARK: - The gateway

    /// Stops the gateway's server: nothing listens on its port until ``startGateway()``.
    func stopGateway() async {
        let gateway = running.withLock { running in
            defer { running = nil }
            return running
        }
        await gateway?.shutdown()
    }

    /// Starts the gateway again on the same database and port.
    func startGateway() async throws {
        let gateway = try await SandboxGateway.start(configuration)
        running.withLock { $0 = gateway }
    }

    /// Publishes a configuration image to the gateway's catalogue with the merchant's API key.
    func publishConfiguration(version: String, bytes: [UInt8], deadline: Date) async throws -> UpdateImage {
        let model = SimulatedReaderConfiguration(secret: Sandbox.secret).model
        let query =
            "model=\(model.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
            + "&kind=\(UpdateKind.configuration.rawValue)&version=\(version)&channel=\(UpdateChannel.production.rawValue)"
            + "&deadline=\(deadline.formatted(.iso8601))"
        let response = try await NIOGatewayTransport().send(
            GatewayHTTPRequest(
                method: "POST", path: GatewayPaths.updates + "?" + query,
                headers: [
                    GatewayHeaders.apiKey: credentials.apiKey, "Content-Type": "application/octet-stream",
                ],
                body: Data(bytes)),
            to: baseURL)
        #expect(response.status == 201, "\(String(decoding: response.body, as: UTF8.self))")
        return try GatewayJSON.decoder.decode(UpdateImage.self, from: response.body)
    }

    // MARK: - The ledger

    /// Every row of the gateway's ledger, read from its SQLite file.
    func ledger() throws -> [LedgerEntry] {
        var configuration = Configuration()
        configuration.readonly = true
        let database = try DatabaseQueue(path: databasePath, configuration: configuration)
        defer { try? database.close() }
        return try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, kind, status, original_id, amount_approved, amount_refunded, amount_tip, created_at
                    FROM payment_transaction ORDER BY seq
                    """
            ).map { row in
                LedgerEntry(
                    id: row["id"], kind: row["kind"], status: row["status"], originalID: row["original_id"],
                    approved: row["amount_approved"], refunded: row["amount_refunded"],
                    tip: row["amount_tip"],
                    createdAt: row["created_at"])
            }
        }
    }

    /// Stops everything, checks the journal holds no card number, and removes the files.
    func close(_ terminal: PaymentTerminal) async throws {
        await terminal.disconnect()
        await server.close()
        serving.cancel()
        await stopGateway()
        #expect(try Sandbox.journalPANHits(in: directory).isEmpty)
        try? FileManager.default.removeItem(at: directory)
    }
}

/// One row of the gateway's ledger, as stored.
struct LedgerEntry: Sendable, Hashable {
    var id: String
    var kind: String
    var status: String
    var originalID: String?
    var approved: Int64
    var refunded: Int64
    var tip: Int64
    /// `YYYY-MM-DD HH:MM:SS.SSS`, UTC.
    var createdAt: String

    /// The UTC day it was booked on, `YYYY-MM-DD`.
    var day: String { String(createdAt.prefix(10)) }

    /// Whether it moved money: approved (in full or in part), or approved and later refunded.
    var movedMoney: Bool { ["approved", "partiallyApproved", "refunded"].contains(status) }
}

/// The counter's tablet: a sound device whose date and time since boot run on the week's
/// clock, so that the device checks find it agreeing with the gateway all week.
struct CounterDevice: DeviceProbe {
    let clock: ManualClock

    func state() async -> DeviceState {
        DeviceState(
            date: CounterWeek.monday.addingTimeInterval(CounterWeek.seconds(clock.now.offset)),
            sinceBoot: .seconds(3_600) + clock.now.offset, bootID: "counter-tablet", passcodeSet: true)
    }
}
