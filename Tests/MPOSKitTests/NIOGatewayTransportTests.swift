import Foundation
import GatewayAPI
import MPOSTestSupport
import NIOCore
import NIOPosix
import SandboxGateway
import Testing

@testable import MPOSKit
@testable import MPOSKitNIO

/// The AsyncHTTPClient gateway transport against the real sandbox gateway and against a raw
/// server that misbehaves: every failure is a `GatewayTransportError`, never a crash or a hang.
@Suite(.timeLimit(.minutes(2))) struct NIOGatewayTransportTests {
    private func url(_ port: Int) -> URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Expects `body` to throw a `GatewayTransportError` with `reason`, and nothing else.
    private func expectError(
        _ reason: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () async throws -> GatewayHTTPResponse
    ) async {
        do {
            let response = try await body()
            Issue.record("expected \"\(reason)\", got status \(response.status)", sourceLocation: sourceLocation)
        } catch let error as GatewayTransportError {
            #expect(error.reason == reason, sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected a GatewayTransportError, got \(error)", sourceLocation: sourceLocation)
        }
    }

    // MARK: - The real gateway

    @Test func talksToTheSandboxGatewayOverOneKeptConnection() async throws {
        let sandbox = try await Sandbox()
        let transport = NIOGatewayTransport()
        let terminal = try await sandbox.terminal(transport: transport)
        let result = try await terminal.sale(PaymentParameters(amount: 12_34, currency: .eur))
        #expect(result.status == .approved)
        // Login, merchant, authorisation: each one's connection came back for the next.
        #expect(transport.openedConnectionCount == 1)
        await transport.shutdown()
        try await sandbox.close(terminal)
    }

    @Test func concurrentRequestsEachGetTheirOwnAnswer() async throws {
        let sandbox = try await Sandbox()
        let transport = NIOGatewayTransport(idleConnections: 3)
        let base = sandbox.gateway.baseURL
        let statuses = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for index in 0..<16 {
                group.addTask {
                    let path = index.isMultiple(of: 2) ? GatewayPaths.health : "/v1/no-such-route-\(index)"
                    return (index, try await transport.send(GatewayHTTPRequest(method: "GET", path: path), to: base).status)
                }
            }
            return try await group.reduce(into: [Int: Int]()) { $0[$1.0] = $1.1 }
        }
        for index in 0..<16 {
            #expect(statuses[index] == (index.isMultiple(of: 2) ? 200 : 404))
        }
        // No more connections than the limit, however many requests come at once.
        #expect(transport.openedConnectionCount <= 3)
        await transport.shutdown()
        try await sandbox.close()
    }

    /// The default keeps as many connections as the offline forward keeps requests in flight:
    /// with fewer, forwards queue for a connection and each costs more (docs/performance.md).
    @Test func theDefaultKeepsAConnectionForEachForwardInFlight() async {
        let transport = NIOGatewayTransport()
        #expect(transport.connectionLimit == OfflinePayments.forwardWindow)
        #expect(NIOGatewayTransport(idleConnections: 0).connectionLimit == 1)
        await transport.shutdown()
    }

    // MARK: - Bodies and keep-alive

    @Test func readsContentLengthBodiesSplitOverWritesAndChunkedBodies() async throws {
        let server = try await ScriptedHTTPServer { request in
            if request.line.hasSuffix("/chunked") {
                return .sendInParts([
                    "HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n",
                    "1\r\n \r\n6\r\nworld!\r\n", "0\r\n\r\n",
                ])
            }
            let body = "echo \(request.line) \(request.body)"
            let whole = ScriptedHTTPServer.answer(200, body)
            return .sendInParts([String(whole.prefix(30)), String(whole.dropFirst(30))])
        }
        let transport = NIOGatewayTransport()
        let chunked = try await transport.send(GatewayHTTPRequest(method: "GET", path: "/chunked"), to: url(server.port))
        #expect(chunked.status == 201)
        #expect(String(decoding: chunked.body, as: UTF8.self) == "hello world!")
        let echoed = try await transport.send(
            GatewayHTTPRequest(method: "POST", path: "/v1/echo", body: Data("{\"a\":1}".utf8)), to: url(server.port))
        #expect(String(decoding: echoed.body, as: UTF8.self) == "echo POST /v1/echo {\"a\":1}")
        // Both answers travelled on one connection.
        #expect(server.connectionCount == 1)
        await transport.shutdown()
        await server.close()
    }

    @Test func eachBaseURLKeepsItsOwnPathAndServer() async throws {
        func echo(_ name: String) async throws -> ScriptedHTTPServer {
            try await ScriptedHTTPServer { request in .send(ScriptedHTTPServer.answer(200, "\(name) \(request.line)")) }
        }
        let first = try await echo("first"), second = try await echo("second")
        let transport = NIOGatewayTransport()
        func get(_ base: String) async throws -> String {
            let response = try await transport.send(GatewayHTTPRequest(method: "GET", path: "/health"), to: URL(string: base)!)
            return String(decoding: response.body, as: UTF8.self)
        }
        // The parsed base URL is reused only for the same URL: another path or port is parsed anew.
        #expect(try await get("http://127.0.0.1:\(first.port)/gw//") == "first GET /gw/health")
        #expect(try await get("http://127.0.0.1:\(first.port)/gw//") == "first GET /gw/health")
        #expect(try await get("http://127.0.0.1:\(second.port)") == "second GET /health")
        #expect(try await get("http://127.0.0.1:\(first.port)/other") == "first GET /other/health")
        await transport.shutdown()
        await first.close()
        await second.close()
    }

    @Test func reconnectsWhenTheServerClosedAKeptConnection() async throws {
        // Every connection answers one request and then closes, although its answer said
        // keep-alive.
        let server = try await ScriptedHTTPServer { request in
            .sendAndClose(ScriptedHTTPServer.answer(200, "answer \(request.index)"))
        }
        let transport = NIOGatewayTransport()
        let keyed = GatewayHTTPRequest(
            method: "POST", path: "/v1/payments/card", headers: [GatewayHeaders.idempotencyKey: "k-1"], body: Data("{}".utf8))
        for index in 0..<3 {
            let request = index == 1 ? keyed : GatewayHTTPRequest(method: "GET", path: "/v1/merchant")
            let response = try await transport.send(request, to: url(server.port))
            #expect(response.status == 200)
        }
        #expect(server.connectionCount == 3)
        await transport.shutdown()
        await server.close()
    }

    /// A reset or a broken pipe is a connection the server closed, as a clean close is: before
    /// the answer it may be sent again from a kept connection; a refusal is a connect failure.
    @Test func aResetOrBrokenPipeIsAClosedConnection() {
        for code in [ECONNRESET, EPIPE] {
            #expect(GatewayExchangeFailure(beforeAnswer: IOError(errnoCode: code, reason: "write")) == .closedBeforeAnswer)
            #expect(GatewayExchangeFailure(midAnswer: IOError(errnoCode: code, reason: "read")) == .closedMidAnswer)
        }
        #expect(
            GatewayExchangeFailure(beforeAnswer: IOError(errnoCode: ECONNREFUSED, reason: "connect"))
                == .connect("connection refused"))
        #expect(GatewayExchangeFailure(beforeAnswer: IOError(errnoCode: EACCES, reason: "write")) == .io("IOError"))
    }

    @Test func noIdleConnectionsMeansAConnectionPerRequest() async throws {
        let server = try await ScriptedHTTPServer { request in .send(ScriptedHTTPServer.answer(200, "answer \(request.index)")) }
        let transport = NIOGatewayTransport(idleConnections: 0)
        for path in ["/a", "/b"] {
            let response = try await transport.send(GatewayHTTPRequest(method: "GET", path: path), to: url(server.port))
            #expect(response.status == 200)
        }
        #expect(transport.openedConnectionCount == 2)
        #expect(server.connectionCount == 2)
        await transport.shutdown()
        await server.close()
    }

    @Test func anAnswerThatSaysCloseIsNotKept() async throws {
        let server = try await ScriptedHTTPServer { _ in
            .send(ScriptedHTTPServer.answer(200, "bye", headers: "Connection: close\r\n"))
        }
        let transport = NIOGatewayTransport()
        _ = try await transport.send(GatewayHTTPRequest(method: "GET", path: "/a"), to: url(server.port))
        _ = try await transport.send(GatewayHTTPRequest(method: "GET", path: "/b"), to: url(server.port))
        #expect(transport.openedConnectionCount == 2)
        #expect(server.connectionCount == 2)
        await transport.shutdown()
        await server.close()
    }

    // MARK: - Failures

    @Test func aRefusedConnectionIsATypedError() async throws {
        // A port that was free a moment ago: bound, then closed.
        let server = try await ScriptedHTTPServer { _ in .silence }
        let port = server.port
        await server.close()
        let transport = NIOGatewayTransport()
        // https too is the transport's own: no other transport takes it over.
        for scheme in ["http", "https"] {
            await expectError("connection refused") {
                try await transport.send(
                    GatewayHTTPRequest(method: "GET", path: "/health"), to: URL(string: "\(scheme)://127.0.0.1:\(port)")!)
            }
        }
        await transport.shutdown()
    }

    @Test func aConnectionResetInTheMiddleOfTheBodyIsATypedError() async throws {
        let server = try await ScriptedHTTPServer { _ in
            .sendAndClose("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"partial\":")
        }
        let transport = NIOGatewayTransport()
        await expectError("connection closed in the middle of the answer") {
            try await transport.send(GatewayHTTPRequest(method: "POST", path: "/v1/payments/card"), to: url(server.port))
        }
        #expect(transport.openedConnectionCount == 1)
        await server.close()
    }

    @Test func aConnectionClosedWithoutAnswerIsATypedErrorAndNotSentAgain() async throws {
        let server = try await ScriptedHTTPServer { _ in .sendAndClose("") }
        let transport = NIOGatewayTransport()
        await expectError("connection closed before an answer") {
            try await transport.send(
                GatewayHTTPRequest(method: "POST", path: "/v1/payments/card", headers: [GatewayHeaders.idempotencyKey: "k"]),
                to: url(server.port))
        }
        // A fresh connection that got no answer is not retried: the server may have acted.
        #expect(server.connectionCount == 1)
        await server.close()
    }

    @Test func garbageInsteadOfHTTPIsATypedError() async throws {
        let server = try await ScriptedHTTPServer { _ in .send("SSH-2.0-OpenSSH_9.6\r\n\r\n\u{0}\u{1}garbage") }
        let transport = NIOGatewayTransport()
        do {
            let response = try await transport.send(GatewayHTTPRequest(method: "GET", path: "/health"), to: url(server.port))
            Issue.record("expected a malformed response, got \(response.status)")
        } catch {
            #expect(error.reason.hasPrefix("malformed response"))
        }
        // The connection that carried garbage is not used again, though the server keeps it.
        do {
            let response = try await transport.send(GatewayHTTPRequest(method: "GET", path: "/again"), to: url(server.port))
            Issue.record("expected a malformed response again, got \(response.status)")
        } catch {
            #expect(error.reason.hasPrefix("malformed response"))
        }
        #expect(server.connectionCount == 2)
        await transport.shutdown()
        await server.close()
    }

    @Test func aServerThatNeverAnswersTimesOutOnTheInjectedClock() async throws {
        let server = try await ScriptedHTTPServer { _ in .silence }
        let clock = ManualClock()
        let transport = NIOGatewayTransport(timeout: .seconds(30), clock: clock)
        let sending = Task {
            try await transport.send(GatewayHTTPRequest(method: "GET", path: "/health"), to: url(server.port))
        }
        await clock.waitForSleeper(until: .seconds(30))
        clock.advance(by: .seconds(30))
        await expectError("timed out") { try await sending.value }
        await server.close()
    }

    @Test func aServerThatNeverAnswersTimesOutAtAnExplicitDeadline() async throws {
        let server = try await ScriptedHTTPServer { _ in .silence }
        let transport = NIOGatewayTransport(timeout: .milliseconds(50))
        await expectError("timed out") {
            try await transport.send(GatewayHTTPRequest(method: "GET", path: "/health"), to: url(server.port))
        }
        await server.close()
    }

    @Test func anAnsweredRequestLeavesNoTimerForTheNextOneOnItsConnection() async throws {
        let server = try await ScriptedHTTPServer { request in
            request.index == 0 ? .send(ScriptedHTTPServer.answer(200, "first")) : .silence
        }
        let clock = ManualClock()
        let transport = NIOGatewayTransport(timeout: .seconds(10), clock: clock)
        _ = try await transport.send(GatewayHTTPRequest(method: "GET", path: "/first"), to: url(server.port))
        let second = Task {
            try await transport.send(GatewayHTTPRequest(method: "GET", path: "/second"), to: url(server.port))
        }
        await clock.waitForSleeper(until: .seconds(10))
        // The second request's timer is the only one: the first one's ended with its answer
        // and cannot time out the reused connection's next exchange.
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(10))
        do {
            _ = try await second.value
            Issue.record("the silent request answered")
        } catch let error as GatewayTransportError {
            #expect(error.reason == "timed out")
        }
        #expect(server.connectionCount == 1)
        await server.close()
    }

    @Test func badURLsAndMethodsAreTypedErrors() async throws {
        let transport = NIOGatewayTransport()
        await expectError("malformed URL") {
            try await transport.send(GatewayHTTPRequest(method: "GET", path: "/health"), to: URL(string: "http:///health")!)
        }
        await expectError("unsupported URL scheme ftp") {
            try await transport.send(GatewayHTTPRequest(method: "GET", path: "/health"), to: URL(string: "ftp://127.0.0.1:1")!)
        }
        await expectError("malformed method") {
            try await transport.send(GatewayHTTPRequest(method: "GET /x HTTP/1.1\r\n", path: "/health"), to: url(1))
        }
        await transport.shutdown()
        await expectError("the transport is shut down") {
            try await transport.send(GatewayHTTPRequest(method: "GET", path: "/health"), to: url(1))
        }
    }
}
