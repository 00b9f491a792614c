import Foundation
import GatewayAPI
import Hummingbird
import SandboxGateway
import Testing

/// A probe route that uses the idempotency helper the payment routes use, counting how
/// often its work runs.
final class WorkCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

/// A one-shot gate: `wait()` suspends until `open()`.
final class Gate: @unchecked Sendable {
    private let lock = NSLock()
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var entered = false
    private var enteredWaiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        for waiter in markEntered() { waiter.resume() }
        await withCheckedContinuation { continuation in
            lock.lock()
            if isOpen {
                lock.unlock()
                continuation.resume()
            } else {
                waiters.append(continuation)
                lock.unlock()
            }
        }
    }

    private func markEntered() -> [CheckedContinuation<Void, Never>] {
        lock.withLock {
            entered = true
            let arrived = enteredWaiters
            enteredWaiters = []
            return arrived
        }
    }

    /// Suspends until some request is inside `wait()`.
    func untilEntered() async {
        await withCheckedContinuation { continuation in
            lock.lock()
            if entered {
                lock.unlock()
                continuation.resume()
            } else {
                enteredWaiters.append(continuation)
                lock.unlock()
            }
        }
    }

    func open() {
        lock.lock()
        isOpen = true
        let all = waiters
        waiters = []
        lock.unlock()
        for waiter in all { waiter.resume() }
    }
}

@Suite("Idempotency over HTTP", .timeLimit(.minutes(2)), .postgresServer)
struct IdempotencyTests {
    static let probePath = "/test/idempotent-probe"
    static let failingPath = "/test/idempotent-failure"

    static func routes(_ counter: WorkCounter)
        -> @Sendable (Router<GatewayRequestContext>, GatewayEnvironment) -> Void
    {
        { router, environment in
            router.post(RouterPath(stringLiteral: probePath)) { request, context in
                var request = request
                let body = try await readBody(&request, context: context)
                return try await environment.idempotency.idempotent(
                    request: request, context: context, body: body
                ) {
                    let run = counter.increment()
                    let payload = #"{"run":\#(run),"nonce":"\#(UUID().uuidString)"}"#
                    return (.created, Data(payload.utf8))
                }
            }
            router.post(RouterPath(stringLiteral: failingPath)) { request, context in
                var request = request
                let body = try await readBody(&request, context: context)
                return try await environment.idempotency.idempotent(
                    request: request, context: context, body: body
                ) {
                    _ = counter.increment()
                    throw GatewayError.declinedValidation("Refused for the test.")
                }
            }
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func replayIsByteForByteAndWorkRunsOnce(engine: GatewayTestEngine) async throws {
        let counter = WorkCounter()
        try await GatewayHarness.with(additionalRoutes: Self.routes(counter), engine: engine) { harness in
            let token = try await harness.login()
            let body = Data(#"{"amount":100}"#.utf8)
            let first = try await harness.send(
                .post, Self.probePath, body: body, token: token, idempotencyKey: "abc-1")
            #expect(first.status == 201)
            #expect(first.header(GatewayHeaders.idempotentReplayed) == nil)
            let second = try await harness.send(
                .post, Self.probePath, body: body, token: token, idempotencyKey: "abc-1")
            #expect(second.status == 201)
            #expect(second.body == first.body)
            #expect(second.header(GatewayHeaders.idempotentReplayed) == "true")
            #expect(counter.count == 1)

            let attempt = try await harness.send(.get, GatewayPaths.attempt(key: "abc-1"), token: token)
            #expect(attempt.status == 201)
            #expect(attempt.body == first.body)

            let other = try await harness.send(
                .post, Self.probePath, body: body, token: token, idempotencyKey: "abc-2")
            #expect(other.body != first.body)
            #expect(counter.count == 2)
        }
    }

    @Test func repeatWhileTheFirstRunsIs4091ThenReplays() async throws {
        let gate = Gate()
        let counter = WorkCounter()
        let routes: @Sendable (Router<GatewayRequestContext>, GatewayEnvironment) -> Void = {
            router, environment in
            router.post("/test/slow") { request, context in
                var request = request
                let body = try await readBody(&request, context: context)
                return try await environment.idempotency.idempotent(
                    request: request, context: context, body: body
                ) {
                    _ = counter.increment()
                    await gate.wait()
                    return (.ok, Data(#"{"done":true}"#.utf8))
                }
            }
        }
        try await GatewayHarness.with(additionalRoutes: routes) { harness in
            let token = try await harness.login()
            let body = Data("{}".utf8)
            let first = Task {
                try await harness.send(.post, "/test/slow", body: body, token: token, idempotencyKey: "slow")
            }
            await gate.untilEntered()
            let second = try await harness.send(
                .post, "/test/slow", body: body, token: token, idempotencyKey: "slow")
            #expect(second.status == 409)
            #expect(second.error?.code == GatewayErrorCode.idempotencyInProgress)
            #expect(
                try await harness.send(.get, GatewayPaths.attempt(key: "slow"), token: token).error?.code
                    == GatewayErrorCode.idempotencyInProgress)
            gate.open()
            let done = try await first.value
            #expect(done.status == 200)
            let replay = try await harness.send(
                .post, "/test/slow", body: body, token: token, idempotencyKey: "slow")
            #expect(replay.body == done.body)
            #expect(counter.count == 1)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func sameKeyWithAnotherBodyIs4090(engine: GatewayTestEngine) async throws {
        let counter = WorkCounter()
        try await GatewayHarness.with(additionalRoutes: Self.routes(counter), engine: engine) { harness in
            let token = try await harness.login()
            _ = try await harness.send(
                .post, Self.probePath, body: Data(#"{"amount":100}"#.utf8), token: token, idempotencyKey: "k")
            let conflict = try await harness.send(
                .post, Self.probePath, body: Data(#"{"amount":101}"#.utf8), token: token, idempotencyKey: "k")
            #expect(conflict.status == 409)
            #expect(conflict.error?.code == GatewayErrorCode.idempotencyConflict)
            #expect(counter.count == 1)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func keysAreScopedToTheMerchant(engine: GatewayTestEngine) async throws {
        let counter = WorkCounter()
        try await GatewayHarness.with(additionalRoutes: Self.routes(counter), engine: engine) { harness in
            _ = try await harness.gateway.environment.accounts.createMerchant(
                name: "Other", user: "other", email: "o@example.com", password: "otherpass1")
            let mine = try await harness.login()
            let theirs = try await harness.login(user: "other", password: "otherpass1")
            let body = Data(#"{"amount":100}"#.utf8)
            _ = try await harness.send(
                .post, Self.probePath, body: body, token: mine, idempotencyKey: "shared")
            #expect(
                try await harness.send(.get, GatewayPaths.attempt(key: "shared"), token: theirs).status == 404
            )
            let second = try await harness.send(
                .post, Self.probePath, body: body, token: theirs, idempotencyKey: "shared")
            #expect(second.status == 201)
            #expect(counter.count == 2)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func storedErrorsReplayToo(engine: GatewayTestEngine) async throws {
        let counter = WorkCounter()
        try await GatewayHarness.with(additionalRoutes: Self.routes(counter), engine: engine) { harness in
            let token = try await harness.login()
            let first = try await harness.send(
                .post, Self.failingPath, body: Data("{}".utf8), token: token, idempotencyKey: "f")
            #expect(first.status == 422)
            let second = try await harness.send(
                .post, Self.failingPath, body: Data("{}".utf8), token: token, idempotencyKey: "f")
            #expect(second.status == 422)
            #expect(second.body == first.body)
            #expect(counter.count == 1)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func missingOrMalformedKeyIs4002(engine: GatewayTestEngine) async throws {
        let counter = WorkCounter()
        try await GatewayHarness.with(additionalRoutes: Self.routes(counter), engine: engine) { harness in
            let token = try await harness.login()
            let missing = try await harness.send(.post, Self.probePath, body: Data("{}".utf8), token: token)
            #expect(missing.status == 400)
            #expect(missing.error?.code == GatewayErrorCode.invalidHeader)
            let bad = try await harness.send(
                .post, Self.probePath, body: Data("{}".utf8), token: token, idempotencyKey: "has space")
            #expect(bad.error?.code == GatewayErrorCode.invalidHeader)
            #expect(counter.count == 0)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func attemptLookupIs404ForUnknownKeysAndNeedsAuth(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let token = try await harness.login()
            let unknown = try await harness.send(.get, GatewayPaths.attempt(key: "never-used"), token: token)
            #expect(unknown.status == 404)
            #expect(unknown.error?.code == GatewayErrorCode.notFound)
            #expect(try await harness.send(.get, GatewayPaths.attempt(key: "never-used")).status == 401)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func keysAreKeptAtLeast24HoursThenPurged(engine: GatewayTestEngine) async throws {
        let counter = WorkCounter()
        try await GatewayHarness.with(additionalRoutes: Self.routes(counter), engine: engine) { harness in
            let body = Data(#"{"amount":1}"#.utf8)
            let token = try await harness.login()
            _ = try await harness.send(.post, Self.probePath, body: body, token: token, idempotencyKey: "old")
            harness.clock.advance(by: 24 * 60 * 60 - 60)
            #expect(try await harness.gateway.runMaintenance() == 0)
            let fresh = try await harness.login()
            #expect(
                try await harness.send(.get, GatewayPaths.attempt(key: "old"), token: fresh).status == 201)
            harness.clock.advance(by: 60)
            #expect(try await harness.gateway.runMaintenance() == 1)
            #expect(
                try await harness.send(.get, GatewayPaths.attempt(key: "old"), token: fresh).status == 404)
        }
    }
}
