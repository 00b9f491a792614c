import Foundation
import NIOSSL
import SandboxGateway
import Testing

/// The gateway's transport against clients that are slow on purpose or idle, and its rules for
/// plain HTTP and TLS: real sockets on 127.0.0.1, timeouts of half a second.
@Suite(.serialized, .timeLimit(.minutes(2))) struct GatewayTransportTests {
    /// A gateway on a temporary database and a free loopback port, with `timeouts`.
    static func withGateway(
        _ timeouts: GatewayConnectionTimeouts, tls: SandboxGatewayTLS? = nil,
        _ body: (RunningGateway) async throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mpos-transport-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = SandboxGatewayConfiguration(
            port: 0, databasePath: directory.appendingPathComponent("gateway.sqlite").path,
            passwordHashRounds: 1_000,
            logLevel: .critical)
        configuration.connectionTimeouts = timeouts
        configuration.tls = tls
        configuration.shutdownGracePeriod = .seconds(1)
        let gateway = try await SandboxGateway.start(configuration)
        do { try await body(gateway) } catch {
            await gateway.shutdown()
            throw error
        }
        await gateway.shutdown()
    }

    static let health = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    static let healthThenClose = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"

    @Test func aClientDrippingItsHeadersIsCutAfterTheHeaderTimeoutWhileOthersAreServed() async throws {
        try await Self.withGateway(
            // Long enough that the normal client's whole head, sent at once, is never cut on a loaded machine.
            .init(idle: .seconds(30), requestHeader: .milliseconds(1_500), requestBody: .seconds(30))
        ) {
            gateway in
            let slow = try await RawGatewayConnection.open(port: gateway.port)
            let opened = ContinuousClock.now
            // One byte every 100 ms, a head that never ends: each byte is activity, none completes it.
            let dripping = Task {
                for byte in "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8
                    + Array(repeating: UInt8(ascii: "a"), count: 100)
                {
                    guard (try? await slow.send(String(decoding: [byte], as: UTF8.self))) != nil else {
                        return
                    }
                    try? await Task.sleep(for: .milliseconds(100))
                }
            }
            defer { dripping.cancel() }

            // A normal client meanwhile is answered at once.
            let normal = try await RawGatewayConnection.open(port: gateway.port, onConnect: Self.healthThenClose)
            let answer = try #require(await normal.response())
            #expect(answer.hasPrefix("HTTP/1.1 200"))
            await normal.close()

            #expect(await slow.wait(atMost: .seconds(8)) { $0.closedAt != nil })
            let closedAfter = try #require(slow.closedAt) - opened
            #expect(
                closedAfter >= .milliseconds(1_400) && closedAfter < .seconds(6), "closed after \(closedAfter)")
            #expect(slow.received.isEmpty, "no answer to a head that never ended")
        }
    }

    @Test func anIdleKeepAliveConnectionIsClosedAfterTheIdleTimeout() async throws {
        try await Self.withGateway(
            .init(idle: .milliseconds(500), requestHeader: .seconds(30), requestBody: .seconds(30))
        ) {
            gateway in
            let connection = try await RawGatewayConnection.open(port: gateway.port)
            try await connection.send(Self.health)
            let answer = try #require(await connection.response())
            #expect(answer.hasPrefix("HTTP/1.1 200"))
            let answered = ContinuousClock.now
            #expect(connection.closedAt == nil, "kept alive after the answer")

            #expect(await connection.wait(atMost: .seconds(5)) { $0.closedAt != nil })
            let idleFor = try #require(connection.closedAt) - answered
            #expect(idleFor >= .milliseconds(300) && idleFor < .seconds(3), "closed after \(idleFor) idle")
        }
    }

    @Test func aKeepAliveConnectionInUseOutlivesTheHeaderTimeout() async throws {
        try await Self.withGateway(
            .init(idle: .seconds(30), requestHeader: .milliseconds(500), requestBody: .seconds(30))
        ) {
            gateway in
            // The first head leaves as the connection opens, so no wait of the test's delays it.
            let connection = try await RawGatewayConnection.open(port: gateway.port, onConnect: Self.health)
            // Three requests 400 ms apart: 1.2 s on one connection, each head whole at once.
            for request in 0..<3 {
                if request > 0 { try await connection.send(Self.health) }
                #expect(await connection.wait(atMost: .seconds(5)) { $0.received.components(separatedBy: "HTTP/1.1 200").count > request + 1 })
                try await Task.sleep(for: .milliseconds(400))
            }
            #expect(connection.closedAt == nil)
            #expect(connection.received.components(separatedBy: "HTTP/1.1 200").count == 4)
            await connection.close()
        }
    }

    @Test func aStalledBodyIsCutAfterTheBodyTimeout() async throws {
        try await Self.withGateway(
            .init(idle: .seconds(30), requestHeader: .seconds(30), requestBody: .milliseconds(500))
        ) {
            gateway in
            let connection = try await RawGatewayConnection.open(port: gateway.port)
            try await connection.send(
                "POST /v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 200\r\n\r\n{\"user\":\"sa")
            let sent = ContinuousClock.now

            #expect(await connection.wait(atMost: .seconds(5)) { $0.closedAt != nil })
            let stalledFor = try #require(connection.closedAt) - sent
            #expect(
                stalledFor >= .milliseconds(300) && stalledFor < .seconds(3), "closed after \(stalledFor)")
        }
    }

    @Test func tlsAnswersCarryStrictTransportSecurityOnTheAPIAndTheDashboard() async throws {
        let identity = try TestCertificate()
        var client = try identity.trustingClient
        client.certificateVerification = .noHostnameVerification
        try await Self.withGateway(GatewayConnectionTimeouts(), tls: try identity.gatewayTLS) { gateway in
            for path in ["/health", "/dashboard/login", "/dashboard/style.css", "/no-such-path"] {
                let connection = try await RawGatewayConnection.open(port: gateway.port, tls: client)
                try await connection.send(
                    "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                let answer = try #require(await connection.response(), "\(path)")
                #expect(
                    answer.lowercased().contains("\r\nstrict-transport-security: max-age=31536000\r\n"),
                    "\(path): \(answer)")
                await connection.close()
            }
        }
    }

    @Test func plainHTTPAnswersCarryNoStrictTransportSecurity() async throws {
        try await Self.withGateway(GatewayConnectionTimeouts()) { gateway in
            for path in ["/health", "/dashboard/login"] {
                let connection = try await RawGatewayConnection.open(port: gateway.port)
                try await connection.send(
                    "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                let answer = try #require(await connection.response(), "\(path)")
                #expect(answer.hasPrefix("HTTP/1.1 200"), "\(path): \(answer)")
                #expect(!answer.lowercased().contains("strict-transport-security"), "\(path)")
                await connection.close()
            }
        }
    }
}

/// Plain HTTP on an address other hosts can reach is refused unless asked for.
@Suite(.timeLimit(.minutes(2))) struct PlainHTTPBeyondLoopbackTests {
    static func configuration(host: String, in directory: URL) -> SandboxGatewayConfiguration {
        SandboxGatewayConfiguration(
            host: host, port: 0, databasePath: directory.appendingPathComponent("gateway.sqlite").path,
            passwordHashRounds: 1_000, logLevel: .critical)
    }

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mpos-bind-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func everyInterfaceOverPlainHTTPIsRefusedBeforeAnythingOpens() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        await #expect(throws: GatewayStartupError.plainHTTPBeyondLoopback) {
            _ = try await SandboxGateway.start(Self.configuration(host: "0.0.0.0", in: directory))
        }
        #expect(
            !FileManager.default.fileExists(atPath: directory.appendingPathComponent("gateway.sqlite").path),
            "no database opened for a refused start")
    }

    @Test func allowsInsecureHTTPServesEveryInterface() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = Self.configuration(host: "0.0.0.0", in: directory)
        configuration.allowsInsecureHTTP = true
        let gateway = try await SandboxGateway.start(configuration)
        let connection = try await RawGatewayConnection.open(port: gateway.port)
        try await connection.send(GatewayTransportTests.healthThenClose)
        #expect(await connection.response()?.hasPrefix("HTTP/1.1 200") == true)
        await connection.close()
        await gateway.shutdown()
    }

    @Test func tlsServesEveryInterfaceWithoutAllowingPlainHTTP() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = Self.configuration(host: "0.0.0.0", in: directory)
        configuration.tls = try TestCertificate().gatewayTLS
        #expect(!configuration.servesPlainHTTPBeyondLoopback)
        let gateway = try await SandboxGateway.start(configuration)
        #expect(gateway.baseURL.scheme == "https")
        await gateway.shutdown()
    }
}
