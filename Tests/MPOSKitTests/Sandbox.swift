import Foundation
import GatewayAPI
import MPOSCore
import MPOSKitNIO
import MPOSTestSupport
import ReaderLink
import ReaderLinkTCP
import ReaderSimulator
import SandboxCards
import SandboxGateway
import Testing

@testable import MPOSKit

/// A real sandbox for one test: the gateway on a temporary SQLite file and port 0, and a
/// simulated reader served over TCP on 127.0.0.1 port 0.
final class Sandbox: Sendable {
    static let secret = try! SharedSecret(hex: SimulatedReaderConfiguration.sandboxSecretHex)

    let directory: URL
    let gateway: RunningGateway
    let credentials: SandboxCredentials
    let server: TCPReaderServer
    /// The reader behind ``server``, which a test may replace.
    let readerSocket: ReaderSocket
    var reader: SimulatedReader { readerSocket.reader }
    private let serving: Task<Void, Never>
    /// The gateway's clock when the test set one: the terminals' devices then read their date
    /// from it too, so that the device checks find the two clocks agreeing.
    let gatewayClock: ManualDateSource?

    var journalPath: String { directory.appendingPathComponent("journal.sqlite").path }

    /// - Parameters:
    ///   - readerClock: the clock the simulated reader's timeouts run on (a manual clock to
    ///     play the 80.xx timeouts without waiting).
    ///   - gatewayTLS: serve the gateway over HTTPS with this certificate.
    init(
        readerClock: any Clock<Duration> = ContinuousClock(),
        gatewayTLS: SandboxGatewayTLS? = nil,
        gatewayClock: ManualDateSource? = nil,
        configure: (inout SimulatedReaderConfiguration) -> Void = { _ in }
    ) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("mposkit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var gatewayConfiguration = SandboxGatewayConfiguration(
            port: 0, databasePath: directory.appendingPathComponent("gateway.sqlite").path, passwordHashRounds: 1_000,
            logLevel: .error)
        gatewayConfiguration.tls = gatewayTLS
        if let gatewayClock { gatewayConfiguration.now = { gatewayClock.now() } }
        self.gatewayClock = gatewayClock
        gateway = try await SandboxGateway.start(gatewayConfiguration)
        credentials = try #require(gateway.credentials)
        var configuration = SimulatedReaderConfiguration(secret: Self.secret)
        configure(&configuration)
        let socket = ReaderSocket(SimulatedReader(configuration: configuration, clock: readerClock))
        readerSocket = socket
        server = try await TCPReaderServer.bind(host: "127.0.0.1", port: 0)
        let connections = server.connections
        serving = Task {
            for await link in connections {
                let reader = await socket.next()
                Task { await reader.serve(link) }
            }
        }
    }

    /// A terminal logged in with the bootstrap credentials and, unless told otherwise,
    /// connected to the reader over TCP. Its gateway transport is the SwiftNIO one, as in an
    /// app on Linux; ``URLSessionEndToEndTests`` covers the SDK's default.
    func terminal(
        transport: any GatewayTransport = NIOGatewayTransport(), clock: any Clock<Duration> = ContinuousClock(),
        connect: Bool = true, deviceChecks: DeviceChecks? = nil
    ) async throws -> PaymentTerminal {
        let terminal = try PaymentTerminal(
            environment: gateway.baseURL, credentials: .login(user: credentials.user, password: credentials.password),
            journalPath: journalPath, transport: transport, clock: clock)
        if let checks = deviceChecks ?? gatewayClock.map({ DeviceChecks(probe: DeviceOnGatewayClock($0)) }) {
            await terminal.setDeviceChecks(checks)
        }
        try await terminal.login()
        if connect {
            let link = try await TCPTransport.connect(host: "127.0.0.1", port: server.port)
            try await terminal.reader.connect(transport: link, secret: Self.secret)
        }
        return terminal
    }

    /// Scans every file of the sandbox's journal (the database, its WAL and shared memory)
    /// for the full PAN of every test card, as digits and packed as BCD (how EMV data and
    /// track 2 carry it).
    func journalPANHits() throws -> [String] { try Self.journalPANHits(in: directory) }

    /// ``journalPANHits()`` over the `journal*` files of `directory`.
    static func journalPANHits(in directory: URL) throws -> [String] {
        var hits: [String] = []
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("journal") }
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent(file)))
            for card in SandboxCards.all {
                let digits = card.pan.unmaskedDigits
                if contains(bytes, Array(digits.utf8)) { hits.append("\(file): \(card.id) as digits") }
                if contains(bytes, packedBCD(digits)) { hits.append("\(file): \(card.id) as BCD") }
            }
        }
        return hits
    }

    /// `digits` two to a byte, an odd last digit padded with F.
    static func packedBCD(_ digits: String) -> [UInt8] {
        let nibbles = digits.utf8.map { $0 - UInt8(ascii: "0") } + (digits.count % 2 == 1 ? [0x0F] : [])
        return stride(from: 0, to: nibbles.count, by: 2).map { nibbles[$0] << 4 | nibbles[$0 + 1] }
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool { ByteSearch.contains(haystack, needle) }

    /// Stops the reader server and the gateway, checks the journal holds no PAN, and removes
    /// the files.
    func close(_ terminal: PaymentTerminal? = nil) async throws {
        if let terminal { await terminal.disconnect() }
        await server.close()
        serving.cancel()
        await gateway.shutdown()
        #expect(try journalPANHits().isEmpty)
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A gateway transport that drops the answer to chosen requests after they reached the
/// gateway, as a lost connection would.
final class DroppingTransport: GatewayTransport {
    private let base: any GatewayTransport
    private let state = Locked(State())

    /// - Parameter base: the transport that really sends.
    init(base: any GatewayTransport = NIOGatewayTransport()) { self.base = base }

    struct State {
        var dropAnswersTo: [String: Int] = [:]
        var sent: [String] = []
        var blockAfterDrop = false
        var blocked = false
    }

    /// Drops the answers of the next `count` requests to `path` (the request is sent).
    func dropAnswers(to path: String, count: Int = 1, thenBlock: Bool = false) {
        state.withLock {
            $0.dropAnswersTo[path] = count
            $0.blockAfterDrop = thenBlock
        }
    }

    /// Whether an answer was dropped with `thenBlock`, so nothing answers any more.
    var isBlocked: Bool { state.withLock { $0.blocked } }

    /// `METHOD path` of every request sent, in order.
    var sent: [String] { state.withLock { $0.sent } }

    func send(_ request: GatewayHTTPRequest, to baseURL: URL) async throws(GatewayTransportError) -> GatewayHTTPResponse {
        if state.withLock({ $0.blocked }) {
            // The process "died": nothing answers any more.
            try? await Task.sleep(for: .seconds(3600))
            throw GatewayTransportError(reason: "blocked")
        }
        state.withLock { $0.sent.append("\(request.method) \(request.path)") }
        let response = try await base.send(request, to: baseURL)
        let drop = state.withLock { state -> Bool in
            guard let left = state.dropAnswersTo[request.path], left > 0 else { return false }
            state.dropAnswersTo[request.path] = left - 1
            if state.blockAfterDrop { state.blocked = true }
            return true
        }
        if drop { throw GatewayTransportError(reason: "connection reset after sending") }
        return response
    }
}

/// A value behind a lock.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// A gateway transport that runs `hook` when the answer to `path` arrives, before handing
/// it over (to cut the reader link, or to cancel, at that exact moment).
final class HookTransport: GatewayTransport {
    private let base: any GatewayTransport = NIOGatewayTransport()
    private let path: String
    private let hook: @Sendable () async -> Void

    init(path: String, hook: @escaping @Sendable () async -> Void) {
        self.path = path
        self.hook = hook
    }

    func send(_ request: GatewayHTTPRequest, to baseURL: URL) async throws(GatewayTransportError) -> GatewayHTTPResponse {
        let response = try await base.send(request, to: baseURL)
        if request.path == path { await hook() }
        return response
    }
}

/// A gateway transport that loses requests on demand or at random: before they reach the
/// gateway (the gateway never saw it) or after it acted (the answer is lost). Login and
/// reporting pass untouched; payment requests, follow-ups and attempt lookups are fair game.
/// It can also play an outage (one request reaches the gateway, its answer and every other
/// request are lost until it ends) and the app's death (after the next authorization reaches
/// the gateway, nothing answers again).
final class ChaosTransport: GatewayTransport {
    private let base = NIOGatewayTransport()
    private let state: Locked<State>

    private enum Plan { case pass, loseBefore, loseAfter }

    private struct State {
        var random: SplitMix64
        var failureRate = 0.0
        var down = false
        /// While down, the path whose first request reaches the gateway (its answer lost).
        var reaching: String?
        var loseNext: (path: String, plan: Plan)?
        var blockAfterAuthorization = false
        var blocked = false
        var lostAuthorizations = (before: 0, after: 0)
        var lostWhileDown = 0
    }

    init(seed: UInt64 = 1) { state = Locked(State(random: SplitMix64(seed: seed))) }

    /// The chance that a payment request or lookup is lost, half before and half after the
    /// gateway acts.
    var failureRate: Double {
        get { state.withLock { $0.failureRate } }
        set { state.withLock { $0.failureRate = newValue } }
    }

    /// Goes down: the first request to `path` reaches the gateway but its answer is lost, and
    /// every other payment request or lookup is lost before it leaves, until ``comeBack()``.
    func goDown(reaching path: String) {
        state.withLock {
            $0.down = true
            $0.reaching = path
        }
    }

    /// Ends the outage.
    func comeBack() {
        state.withLock {
            $0.down = false
            $0.reaching = nil
        }
    }

    /// Loses the next request to `path`: before it reaches the gateway, or its answer after.
    func loseNext(_ path: String, afterSending: Bool) {
        state.withLock { $0.loseNext = (path, afterSending ? .loseAfter : .loseBefore) }
    }

    /// After the next authorization reaches the gateway, nothing answers any more.
    func blockAfterAuthorization() { state.withLock { $0.blockAfterAuthorization = true } }

    /// Takes back ``blockAfterAuthorization()`` when no authorization came.
    func cancelBlock() { state.withLock { $0.blockAfterAuthorization = false } }

    /// Whether an authorization reached the gateway after ``blockAfterAuthorization()``.
    var isBlocked: Bool { state.withLock { $0.blocked } }

    /// Authorizations lost before they reached the gateway, and after it acted.
    var lostAuthorizations: (before: Int, after: Int) { state.withLock { $0.lostAuthorizations } }

    /// Requests lost during outages.
    var lostWhileDown: Int { state.withLock { $0.lostWhileDown } }

    func send(_ request: GatewayHTTPRequest, to baseURL: URL) async throws(GatewayTransportError) -> GatewayHTTPResponse {
        let path = request.path
        let faultable = path.hasPrefix("/v1/payments/") || path.hasPrefix("/v1/attempts/")
            || path.hasSuffix("/reverse") || path.hasSuffix("/refund") || path.hasSuffix("/void")
            || path.hasSuffix("/capture")
        let plan: Plan = state.withLock { state in
            guard faultable, !state.blocked else { return .pass }
            var plan = Plan.pass
            if state.down {
                plan = path == state.reaching ? .loseAfter : .loseBefore
                if path == state.reaching { state.reaching = nil }
                state.lostWhileDown += 1
            } else if let next = state.loseNext, next.path == path {
                state.loseNext = nil
                plan = next.plan
            } else if state.failureRate > 0 {
                let draw = Double(state.random.next() % 1_000_000) / 1_000_000
                if draw < state.failureRate { plan = draw < state.failureRate / 2 ? .loseBefore : .loseAfter }
            }
            if path == GatewayPaths.authorizeCard {
                if plan == .loseBefore { state.lostAuthorizations.before += 1 }
                if plan == .loseAfter { state.lostAuthorizations.after += 1 }
            }
            return plan
        }
        if state.withLock({ $0.blocked }) {
            // The app died: its requests never leave.
            try? await Task.sleep(for: .seconds(3600))
            throw GatewayTransportError(reason: "the app is gone")
        }
        if plan == .loseBefore { throw GatewayTransportError(reason: "connection refused (injected)") }
        let response = try await base.send(request, to: baseURL)
        let block = state.withLock { state in
            guard state.blockAfterAuthorization, path == GatewayPaths.authorizeCard else { return false }
            state.blockAfterAuthorization = false
            state.blocked = true
            return true
        }
        if block || plan == .loseAfter { throw GatewayTransportError(reason: "connection reset after sending (injected)") }
        return response
    }
}

/// A clock on which a wait of at most `limit` passes at once (the time moves on by it) and a
/// longer one lasts until it is cancelled: retries and back-offs run through while the
/// timeouts beyond `limit` never fire.
final class ShortWaitsPassClock: Clock, @unchecked Sendable {
    typealias Instant = ManualClock.Instant
    private let lock = NSLock()
    private var offset: Duration = .zero
    let limit: Duration

    init(upTo limit: Duration) { self.limit = limit }

    var now: Instant { lock.withLock { Instant(offset: offset) } }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        if now.duration(to: deadline) <= limit {
            lock.withLock { offset = max(offset, deadline.offset) }
            await Task.yield()
            try Task.checkCancellation()
            return
        }
        try await Task.sleep(for: .seconds(86_400))
    }
}
