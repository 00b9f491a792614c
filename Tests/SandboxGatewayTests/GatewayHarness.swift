import Foundation
import GatewayAPI
import Hummingbird
import HummingbirdTesting
import SandboxGateway
import Testing

/// A sandbox gateway on a free loopback port over a file database in a fresh temporary
/// directory, with a manual clock and cheap password hashing, plus a real HTTP client.
struct GatewayHarness {
    let gateway: RunningGateway
    let clock: ManualDateSource
    let directory: URL
    let credentials: SandboxCredentials

    /// An HTTP answer.
    struct Reply {
        let status: Int
        let headers: HTTPFields
        let body: Data

        func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
            try GatewayJSON.makeDecoder().decode(T.self, from: body)
        }

        var error: GatewayErrorBody? { try? decode(GatewayErrorBody.self) }

        func header(_ name: String) -> String? { HTTPFieldName(name).flatMap { headers[$0] } }
    }

    static func start(
        clock: ManualDateSource = ManualDateSource(),
        directory: URL? = nil,
        bodyLimit: Int = 64 * 1024,
        webhookClock: any Clock<Duration> = ContinuousClock(),
        groupCommit: Bool = true,
        databaseURL: PostgresURL? = nil,
        additionalRoutes: (@Sendable (Router<GatewayRequestContext>, GatewayEnvironment) -> Void)? = nil,
        configure: (inout SandboxGatewayConfiguration) -> Void = { _ in }
    ) async throws -> GatewayHarness {
        let directory =
            directory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "sandbox-gateway-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = SandboxGatewayConfiguration(
            host: "127.0.0.1", port: 0, databasePath: directory.appendingPathComponent("gateway.sqlite").path,
            now: clock.dateProvider, bodyLimit: bodyLimit, passwordHashRounds: 1_000, logLevel: .critical,
            additionalRoutes: additionalRoutes, groupCommit: groupCommit)
        configuration.webhookClock = webhookClock
        configuration.databaseURL = databaseURL
        configure(&configuration)
        let gateway = try await SandboxGateway.start(configuration)
        let credentials = try #require(gateway.credentials)
        return GatewayHarness(gateway: gateway, clock: clock, directory: directory, credentials: credentials)
    }

    /// Starts a harness, runs `body`, and stops it whether `body` throws or not.
    static func with(
        clock: ManualDateSource = ManualDateSource(),
        bodyLimit: Int = 64 * 1024,
        webhookClock: any Clock<Duration> = ContinuousClock(),
        groupCommit: Bool = true,
        additionalRoutes: (@Sendable (Router<GatewayRequestContext>, GatewayEnvironment) -> Void)? = nil,
        engine: GatewayTestEngine = .sqlite,
        configure: (inout SandboxGatewayConfiguration) -> Void = { _ in },
        _ body: (GatewayHarness) async throws -> Void
    ) async throws {
        let harness = try await start(
            clock: clock, bodyLimit: bodyLimit, webhookClock: webhookClock, groupCommit: groupCommit,
            databaseURL: try engine.freshDatabaseURL(), additionalRoutes: additionalRoutes, configure: configure)
        do {
            try await body(harness)
        } catch {
            await harness.stop()
            throw error
        }
        await harness.stop()
    }

    func stop(removingFiles: Bool = true) async {
        await gateway.shutdown()
        if removingFiles { try? FileManager.default.removeItem(at: directory) }
    }

    /// Sends one request on a fresh connection.
    func send(
        _ method: HTTPRequest.Method, _ path: String, body: Data? = nil, token: String? = nil,
        apiKey: String? = nil, idempotencyKey: String? = nil, headers extra: HTTPFields = [:]
    ) async throws -> Reply {
        var headers = extra
        if let token { headers[.authorization] = "Bearer \(token)" }
        if let apiKey { headers[HTTPFieldName(GatewayHeaders.apiKey)!] = apiKey }
        if let idempotencyKey { headers[HTTPFieldName(GatewayHeaders.idempotencyKey)!] = idempotencyKey }
        if body != nil, headers[.contentType] == nil { headers[.contentType] = "application/json" }
        let request = TestClient.Request(
            path, method: method, authority: "127.0.0.1:\(gateway.port)", headers: headers,
            body: body.map { ByteBuffer(bytes: $0) })
        let response = try await TestClient.withClient(host: "127.0.0.1", port: gateway.port) { client in
            try await client.execute(request)
        }
        let bytes = response.body.map { Data($0.readableBytesView) } ?? Data()
        return Reply(status: Int(response.status.code), headers: response.headers, body: bytes)
    }

    /// Sends `value` encoded as JSON.
    func send<T: Encodable>(
        _ method: HTTPRequest.Method, _ path: String, json value: T, token: String? = nil,
        apiKey: String? = nil, idempotencyKey: String? = nil
    ) async throws -> Reply {
        try await send(
            method, path, body: try GatewayJSON.makeEncoder().encode(value), token: token, apiKey: apiKey,
            idempotencyKey: idempotencyKey)
    }

    /// Logs the bootstrap user in and returns the access token.
    func login(user: String? = nil, password: String? = nil) async throws -> String {
        let reply = try await send(
            .post, GatewayPaths.login,
            json: LoginRequest(user: user ?? credentials.user, password: password ?? credentials.password))
        #expect(reply.status == 200)
        return try reply.decode(Session.self).accessToken
    }
}

/// The database engine a test's gateway runs on: a SQLite file, or a fresh database on the
/// suite's PostgreSQL server (suites that use it carry the `.postgresServer` trait).
enum GatewayTestEngine: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case sqlite
    case postgres

    /// `nil` for SQLite; a new, empty PostgreSQL database otherwise.
    func freshDatabaseURL() throws -> PostgresURL? {
        switch self {
        case .sqlite: nil
        case .postgres: try PostgresTestServer.freshDatabase()
        }
    }

    var testDescription: String { rawValue }
}
