import Foundation
import GatewayAPI
import MPOSTestSupport
import SandboxGateway

/// Publishing and initializing over HTTP, for the terminal-management tests.
enum UpdateTestSupport {
    /// `count` seeded random bytes (the seed is the run's test seed).
    static func bytes(_ count: Int, salt: UInt64 = 0) -> Data {
        var generator = SplitMix64(seed: SplitMix64.testSeed(environment: ProcessInfo.processInfo.environment) ^ salt)
        var data = Data(capacity: count)
        while data.count < count {
            withUnsafeBytes(of: generator.next()) { data.append(contentsOf: $0.prefix(count - data.count)) }
        }
        return data
    }

    /// `POST /v1/updates` with the first merchant's API key (or `apiKey`).
    static func publish(
        _ harness: GatewayHarness, model: String = "MPOS-1", kind: UpdateKind = .firmware, version: String,
        channel: UpdateChannel? = nil, deadline: String? = nil, bytes: Data, apiKey: String? = nil
    ) async throws -> GatewayHarness.Reply {
        var query = "model=\(model)&kind=\(kind.rawValue)&version=\(version)"
        if let channel { query += "&channel=\(channel.rawValue)" }
        if let deadline { query += "&deadline=\(deadline)" }
        return try await harness.send(
            .post, GatewayPaths.updates + "?" + query, body: bytes, apiKey: apiKey ?? harness.credentials.apiKey)
    }

    /// Publishes and decodes the catalogue entry.
    static func published(
        _ harness: GatewayHarness, model: String = "MPOS-1", kind: UpdateKind = .firmware, version: String,
        channel: UpdateChannel? = nil, deadline: String? = nil, bytes: Data? = nil
    ) async throws -> UpdateImage {
        try await publish(
            harness, model: model, kind: kind, version: version, channel: channel, deadline: deadline,
            bytes: bytes ?? Self.bytes(100, salt: UInt64(version.utf8.count))
        ).decode(UpdateImage.self)
    }

    /// `POST /v1/terminals/initialize` with `token`, decoded; without one, as the first merchant's
    /// user, logged in afresh (tests move the clock past a session's lifetime).
    static func initialize(
        _ harness: GatewayHarness, token: String? = nil, serial: String = "SN-1", model: String = "MPOS-1",
        firmware: String = "1.0.0", configuration: String = "1", channel: UpdateChannel? = nil
    ) async throws -> TerminalInitializeResponse {
        var session = token
        if session == nil { session = try await harness.login() }
        let reply = try await harness.send(
            .post, GatewayPaths.terminalInitialize,
            json: TerminalInitializeRequest(
                model: model, serialNumber: serial, firmwareVersion: firmware, configurationVersion: configuration,
                channel: channel), token: session)
        return try reply.decode(TerminalInitializeResponse.self)
    }
}
