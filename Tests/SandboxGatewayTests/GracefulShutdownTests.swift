import Foundation
import Hummingbird
import HummingbirdTesting
import SandboxGateway
import Synchronization
import Testing

/// Shutting a gateway down answers what it already accepted: a load balancer drains an
/// instance for a rolling restart, and the payment that was being authorised still gets
/// its answer instead of a reset connection.
@Suite(.timeLimit(.minutes(1)))
struct GracefulShutdownTests {
    /// A route that holds its answer until the test opens the gate.
    final class Gate: Sendable {
        private let entered = AsyncStream<Void>.makeStream()
        private let opened = AsyncStream<Void>.makeStream()

        func enter() async {
            entered.continuation.yield()
            for await _ in opened.stream { return }
        }

        func waitUntilEntered() async {
            for await _ in entered.stream { return }
        }

        func open() { opened.continuation.yield() }
    }

    @Test func aRequestInFlightIsAnsweredAndNewConnectionsAreRefused() async throws {
        let gate = Gate()
        let harness = try await GatewayHarness.start(additionalRoutes: { router, _ in
            router.get("/test/slow") { _, _ in
                await gate.enter()
                return "finished after shutdown began"
            }
        })
        defer { try? FileManager.default.removeItem(at: harness.directory) }
        let port = harness.gateway.port

        let inFlight = Task {
            try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
                try await client.execute(TestClient.Request("/test/slow", method: .get, authority: "127.0.0.1:\(port)"))
            }
        }
        await gate.waitUntilEntered()
        let shutdown = Task { await harness.gateway.shutdown() }

        // Once the listener is closed a new connection is refused; the request in flight
        // is still waiting at the gate, so the shutdown cannot have finished yet.
        var refused = false
        while !refused {
            do {
                _ = try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
                    try await client.execute(TestClient.Request("/health", method: .get, authority: "127.0.0.1:\(port)"))
                }
                await Task.yield()
            } catch {
                refused = true
            }
        }

        gate.open()
        let response = try await inFlight.value
        #expect(response.status == .ok)
        #expect(response.body.map { String(buffer: $0) } == "finished after shutdown began")
        await shutdown.value
    }
}
