import Foundation
import GatewayAPI
import Hummingbird
@testable import SandboxGateway
import Testing

/// The probes of a network attacker against a merchant's accounts, each of which took the
/// merchant over or stopped its counter before: an unauthenticated password reset, a client
/// token reading the outbox, guessing that locks the user, answers that tell real users from
/// unknown ones.
@Suite("Account security over HTTP", .timeLimit(.minutes(3)), .postgresServer)
struct AccountSecurityTests {
    // MARK: Helpers

    /// Sends `value` as JSON from the client address `address` (through the trusted proxy at
    /// 127.0.0.1, which the harness's configuration names).
    static func send<T: Encodable>(
        _ harness: GatewayHarness, _ method: HTTPRequest.Method, _ path: String, json value: T,
        from address: String? = nil, token: String? = nil
    ) async throws -> GatewayHarness.Reply {
        var headers = HTTPFields()
        if let address { headers[.xForwardedFor] = address }
        return try await harness.send(
            method, path, body: try GatewayJSON.makeEncoder().encode(value), token: token, headers: headers)
    }

    static func login(
        _ harness: GatewayHarness, user: String? = nil, password: String, from address: String? = nil
    ) async throws -> GatewayHarness.Reply {
        try await send(
            harness, .post, GatewayPaths.login, json: LoginRequest(user: user ?? harness.credentials.user, password: password),
            from: address)
    }

    static func behindProxy(_ configuration: inout SandboxGatewayConfiguration) {
        configuration.trustedProxies = ["127.0.0.1"]
    }

    /// The reset code of the newest mail in the merchant's outbox.
    static func newestResetCode(_ harness: GatewayHarness) async throws -> String {
        let outbox = try await harness.send(.get, GatewayPaths.outbox, apiKey: harness.credentials.apiKey)
            .decode(OutboxList.self)
        let mail = try #require(outbox.messages.first)
        return try #require(
            mail.body.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first { $0.hasPrefix("pr_") })
    }

    static func mintClientToken(_ harness: GatewayHarness) async throws -> String {
        try await harness.send(.post, GatewayPaths.clientTokens, apiKey: harness.credentials.apiKey)
            .decode(ClientToken.self).token
    }

    // MARK: Finding 1 and item 2: a reset proves who asks

    @Test(arguments: GatewayTestEngine.allCases)
    func aResetRequestChangesNothingAndAnswersAlikeForUnknownUsers(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let token = try await harness.login()
            var answers: [Data] = []
            for _ in 1...3 {
                let reply = try await harness.send(
                    .post, GatewayPaths.resetPassword, json: ResetPasswordRequest(user: harness.credentials.user))
                #expect(reply.status == 202)
                answers.append(reply.body)
            }
            let ghost = try await harness.send(.post, GatewayPaths.resetPassword, json: ResetPasswordRequest(user: "ghost"))
            #expect(ghost.status == 202)
            #expect(Set(answers + [ghost.body]).count == 1)

            // The session, the password and the terminal all go on.
            #expect(try await harness.send(.get, GatewayPaths.merchant, token: token).status == 200)
            #expect(try await Self.login(harness, password: harness.credentials.password).status == 200)
            // Mail holds a code, never a password.
            let outbox = try await harness.send(.get, GatewayPaths.outbox, apiKey: harness.credentials.apiKey)
                .decode(OutboxList.self)
            #expect(outbox.messages.count == 3)
            #expect(outbox.messages.allSatisfy { !$0.body.lowercased().contains("password is") })
            #expect(outbox.messages.allSatisfy { !$0.body.contains(harness.credentials.password) })
        }
    }

    @Test(arguments: GatewayTestEngine.allCases)
    func aResetCodeSetsThePasswordOnceAndEndsTheUsersSessions(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let api = try await harness.login()
            let browser = try await DashboardBrowser.signedIn(harness)
            #expect(try await browser.get("/dashboard/transactions").status == 200)
            _ = try await harness.send(
                .post, GatewayPaths.resetPassword, json: ResetPasswordRequest(user: harness.credentials.user))
            let code = try await Self.newestResetCode(harness)
            // Only its hash is stored.
            let stored = try await harness.gateway.environment.store.database.read { db in
                try db.fetchAll(sql: "SELECT codeHash FROM password_reset", arguments: []).map { $0["codeHash"] as String }
            }
            #expect(stored == [Secrets.sha256Hex(code)])

            // A policy refusal keeps the code usable.
            let weak = try await harness.send(
                .post, GatewayPaths.confirmPasswordReset,
                json: ConfirmPasswordResetRequest(code: code, newPassword: "short1", confirmation: "short1"))
            #expect(weak.error?.code == GatewayErrorCode.passwordPolicy)
            let confirm = ConfirmPasswordResetRequest(code: code, newPassword: "fresh-pass-42", confirmation: "fresh-pass-42")
            #expect(try await harness.send(.post, GatewayPaths.confirmPasswordReset, json: confirm).status == 200)
            let again = try await harness.send(.post, GatewayPaths.confirmPasswordReset, json: confirm)
            #expect(again.status == 401)
            #expect(again.error?.code == GatewayErrorCode.unauthorized)

            #expect(try await harness.send(.get, GatewayPaths.merchant, token: api).status == 401)
            #expect(try await browser.get("/dashboard/transactions").header("Location") == "/dashboard/login")
            #expect(try await Self.login(harness, password: harness.credentials.password).status == 401)
            #expect(try await Self.login(harness, password: "fresh-pass-42").status == 200)
        }
    }

    @Test func aResetCodeExpiresAfterThirtyMinutesAndANewerOneReplacesIt() async throws {
        try await GatewayHarness.with { harness in
            let reset = ResetPasswordRequest(user: harness.credentials.user)
            _ = try await harness.send(.post, GatewayPaths.resetPassword, json: reset)
            let first = try await Self.newestResetCode(harness)
            _ = try await harness.send(.post, GatewayPaths.resetPassword, json: reset)
            let second = try await Self.newestResetCode(harness)
            #expect(first != second)
            func redeem(_ code: String) async throws -> Int {
                try await harness.send(
                    .post, GatewayPaths.confirmPasswordReset,
                    json: ConfirmPasswordResetRequest(code: code, newPassword: "fresh-pass-42", confirmation: "fresh-pass-42")
                ).status
            }
            #expect(try await redeem(first) == 401)
            harness.clock.advance(by: 30 * 60)
            #expect(try await redeem(second) == 401)
            _ = try await harness.send(.post, GatewayPaths.resetPassword, json: reset)
            let third = try await Self.newestResetCode(harness)
            harness.clock.advance(by: 30 * 60 - 1)
            #expect(try await redeem(third) == 200)
        }
    }

    @Test func redeemingACodeLiftsALockout() async throws {
        try await GatewayHarness.with(configure: Self.behindProxy) { harness in
            for attempt in 1...10 {
                _ = try await Self.login(harness, password: "wrong-\(attempt)", from: "203.0.113.\(attempt)")
            }
            #expect(try await Self.login(harness, password: harness.credentials.password).error?.code == GatewayErrorCode.locked)
            _ = try await harness.send(
                .post, GatewayPaths.resetPassword, json: ResetPasswordRequest(user: harness.credentials.user))
            let code = try await Self.newestResetCode(harness)
            let confirm = ConfirmPasswordResetRequest(code: code, newPassword: "fresh-pass-42", confirmation: "fresh-pass-42")
            #expect(try await harness.send(.post, GatewayPaths.confirmPasswordReset, json: confirm).status == 200)
            #expect(try await Self.login(harness, password: "fresh-pass-42").status == 200)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases)
    func aPasswordChangeEndsTheUsersOtherSessionsButTheCallers(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let mine = try await harness.login()
            let other = try await harness.login()
            let browser = try await DashboardBrowser.signedIn(harness)
            #expect(try await harness.send(.get, GatewayPaths.merchant, token: other).status == 200)
            let change = ChangePasswordRequest(
                oldPassword: harness.credentials.password, newPassword: "fresh-pass-42", confirmation: "fresh-pass-42")
            #expect(try await harness.send(.post, GatewayPaths.changePassword, json: change, token: mine).status == 200)
            #expect(try await harness.send(.get, GatewayPaths.merchant, token: mine).status == 200)
            #expect(try await harness.send(.get, GatewayPaths.merchant, token: other).status == 401)
            #expect(try await browser.get("/dashboard/transactions").header("Location") == "/dashboard/login")
        }
    }

    // MARK: Finding 2 and item 3: each credential does only its job

    /// Every route of the contract, called with a client token: administration routes refuse
    /// it with 4031 (routes for an API key or a person's session only, 4030), and no payment
    /// or terminal route refuses it.
    @Test(arguments: GatewayTestEngine.allCases)
    func aClientTokenIsRefusedEveryAdministrationRouteAndNoOther(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let token = try await Self.mintClientToken(harness)
            var refusedWithScope: [String] = []
            for route in GatewayRoutes.all where route.authentication != .none {
                let path = route.path(filling: ["id": "tx_unknown", "key": "key-unknown"])
                let reply = try await harness.send(
                    HTTPRequest.Method(route.method), path, body: route.hasJSONBody ? Data("{}".utf8) : nil, token: token,
                    idempotencyKey: route.requiresIdempotencyKey ? "scope-walk-1" : nil)
                switch (route.scope, route.authentication) {
                case (.administration, .bearer), (.administration, .bearerOrAPIKey):
                    #expect(reply.status == 403, "\(route)")
                    #expect(reply.error?.code == GatewayErrorCode.insufficientScope, "\(route)")
                    refusedWithScope.append(route.description)
                case (.administration, .apiKey):
                    #expect(reply.error?.code == GatewayErrorCode.insufficientScope, "\(route)")
                case (_, .accessToken):
                    #expect(reply.error?.code == GatewayErrorCode.forbidden, "\(route)")
                default:
                    #expect(![401, 403].contains(reply.status), "\(route): \(reply.status)")
                }
            }
            #expect(refusedWithScope.contains("GET /v1/outbox"))
            #expect(refusedWithScope.contains("PUT /v1/webhooks/config"))
            #expect(refusedWithScope.contains("POST /v1/batches/close"))
            #expect(refusedWithScope.contains("GET /v1/security-events"))
        }
    }

    /// The takeover of before: a client token read the reset mail, logged in with it and made
    /// dashboard links.
    @Test func aClientTokenCannotReachTheOutboxOrTheDashboard() async throws {
        try await GatewayHarness.with { harness in
            let token = try await Self.mintClientToken(harness)
            _ = try await harness.send(
                .post, GatewayPaths.resetPassword, json: ResetPasswordRequest(user: harness.credentials.user))
            let outbox = try await harness.send(.get, GatewayPaths.outbox, token: token)
            #expect(outbox.status == 403)
            #expect(!String(decoding: outbox.body, as: UTF8.self).contains("pr_"))
            #expect(try await harness.send(.post, "/dashboard/login-links", token: token).status == 403)
            let webhook = try await harness.send(
                .put, GatewayPaths.webhookConfig, json: WebhookConfig(callbackURL: "https://attacker.example/hook"),
                token: token)
            #expect(webhook.error?.code == GatewayErrorCode.insufficientScope)
            // The person's session still may.
            let access = try await harness.login()
            #expect(try await harness.send(.get, GatewayPaths.outbox, token: access).status == 200)
        }
    }

    // MARK: Finding 5 and item 4: guessing is slowed, not turned into an outage

    @Test(arguments: GatewayTestEngine.allCases)
    func failedLoginsFromOneAddressWaitLongerEachTime(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            for _ in 1...3 {
                #expect(try await Self.login(harness, password: "wrong-pass-1").error?.code == GatewayErrorCode.unauthorized)
            }
            let throttled = try await Self.login(harness, password: harness.credentials.password)
            #expect(throttled.status == 429)
            #expect(throttled.error?.code == GatewayErrorCode.tooManyRequests)
            #expect(throttled.header("Retry-After") == "1")
            harness.clock.advance(by: 1)
            #expect(try await Self.login(harness, password: "wrong-pass-1").status == 401)
            #expect(try await Self.login(harness, password: "wrong-pass-1").header("Retry-After") == "2")
            harness.clock.advance(by: 2)
            // The right password after the wait: a success clears the (user, address) count.
            #expect(try await Self.login(harness, password: harness.credentials.password).status == 200)
            #expect(try await Self.login(harness, password: "wrong-pass-1").status == 401)
        }
    }

    @Test func anAddressGuessingManyUsersIsSlowedAsAWholeAndOthersAreNot() async throws {
        try await GatewayHarness.with(configure: Self.behindProxy) { harness in
            for index in 1...20 {
                #expect(
                    try await Self.login(harness, user: "user\(index)", password: "guess-1", from: "198.51.100.7").status
                        == 401)
            }
            let slowed = try await Self.login(harness, user: "user21", password: "guess-1", from: "198.51.100.7")
            #expect(slowed.status == 429)
            // The merchant's own counter, from its own address, is not slowed by the guesser.
            #expect(try await Self.login(harness, password: harness.credentials.password, from: "192.0.2.10").status == 200)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases)
    func tenFailuresLockForThirtyMinutes(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine, configure: Self.behindProxy) { harness in
            for attempt in 1...10 {
                let reply = try await Self.login(harness, password: "wrong-pass-1", from: "203.0.113.\(attempt)")
                #expect(reply.error?.code == (attempt < 10 ? GatewayErrorCode.unauthorized : GatewayErrorCode.locked))
            }
            let right = harness.credentials.password
            #expect(try await Self.login(harness, password: right, from: "192.0.2.1").error?.code == GatewayErrorCode.locked)
            harness.clock.advance(by: 30 * 60 - 1)
            #expect(try await Self.login(harness, password: right, from: "192.0.2.1").error?.code == GatewayErrorCode.locked)
            harness.clock.advance(by: 1)
            #expect(try await Self.login(harness, password: right, from: "192.0.2.1").status == 200)
        }
    }

    @Test func aSuccessResetsTheFailureCount() async throws {
        try await GatewayHarness.with(configure: Self.behindProxy) { harness in
            for attempt in 1...9 {
                _ = try await Self.login(harness, password: "wrong-pass-1", from: "203.0.113.\(attempt)")
            }
            #expect(try await Self.login(harness, password: harness.credentials.password, from: "192.0.2.1").status == 200)
            for attempt in 1...9 {
                let reply = try await Self.login(harness, password: "wrong-pass-1", from: "203.0.114.\(attempt)")
                #expect(reply.error?.code == GatewayErrorCode.unauthorized)
            }
        }
    }

    /// An unknown user and a real user with a wrong password get the same bytes, up to and
    /// including the lock.
    @Test func unknownUsersAnswerAsRealOnesUpToTheLock() async throws {
        try await GatewayHarness.with(configure: Self.behindProxy) { harness in
            for attempt in 1...10 {
                let real = try await Self.login(harness, password: "wrong-pass-1", from: "203.0.113.\(attempt)")
                let ghost = try await Self.login(harness, user: "ghost", password: "wrong-pass-1", from: "203.0.114.\(attempt)")
                #expect(real.status == ghost.status)
                #expect(real.body == ghost.body, "attempt \(attempt)")
            }
            let ghost = try await Self.login(harness, user: "ghost", password: "wrong-pass-1", from: "192.0.2.1")
            #expect(ghost.error?.code == GatewayErrorCode.locked)
        }
    }

    /// Before, an unknown user answered in 2.8 ms and a wrong password in 24 ms.
    @Test func anUnknownUserTakesAsLongAsAWrongPassword() async throws {
        try await GatewayHarness.with(configure: { configuration in
            configuration.trustedProxies = ["127.0.0.1"]
            configuration.passwordHashRounds = 300_000
        }) { harness in
            // The bootstrap user's password was hashed with these rounds too.
            let clock = ContinuousClock()
            var real: [Duration] = []
            var ghost: [Duration] = []
            for attempt in 1...5 {
                real.append(try await clock.measure {
                    _ = try await Self.login(harness, password: "wrong-pass-1", from: "203.0.113.\(attempt)")
                })
                ghost.append(try await clock.measure {
                    _ = try await Self.login(harness, user: "ghost", password: "wrong-pass-1", from: "203.0.114.\(attempt)")
                })
            }
            let median = { (values: [Duration]) in values.sorted()[values.count / 2] }
            #expect(median(ghost) * 2 > median(real), "unknown \(median(ghost)), wrong password \(median(real))")
        }
    }

    // MARK: Item 8: a record of who did what

    @Test(arguments: GatewayTestEngine.allCases)
    func theSecurityLogRecordsWhoDidWhatAndNoSecret(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine, configure: Self.behindProxy) { harness in
            _ = try await Self.login(harness, password: "wrong-pass-1", from: "203.0.113.9")
            let clientToken = try await Self.mintClientToken(harness)
            _ = try await harness.send(.get, GatewayPaths.outbox, token: clientToken)
            _ = try await harness.send(
                .post, GatewayPaths.resetPassword, json: ResetPasswordRequest(user: harness.credentials.user))
            let code = try await Self.newestResetCode(harness)
            _ = try await harness.send(
                .post, GatewayPaths.confirmPasswordReset,
                json: ConfirmPasswordResetRequest(code: code, newPassword: "fresh-pass-42", confirmation: "fresh-pass-42"))
            let access = try await Self.login(harness, password: "fresh-pass-42").decode(Session.self).accessToken
            _ = try await harness.send(
                .post, GatewayPaths.changePassword,
                json: ChangePasswordRequest(oldPassword: "fresh-pass-42", newPassword: "fresh-pass-43", confirmation: "fresh-pass-43"),
                token: access)
            _ = try await harness.send(
                .put, GatewayPaths.webhookConfig,
                json: WebhookConfig(callbackURL: "https://127.0.0.1:9/hook", secret: "whsec-0123456789abcdef"), token: access)

            #expect(try await harness.send(.get, GatewayPaths.securityEvents, token: clientToken).status == 403)
            let reply = try await harness.send(.get, GatewayPaths.securityEvents, token: access)
            #expect(reply.status == 200)
            let events = try reply.decode(SecurityEventList.self).events
            #expect(
                Array(events.map(\.kind).reversed()) == [
                    .loginFailed, .clientTokenGranted, .scopeRefused, .passwordResetRequested, .passwordResetRedeemed,
                    .passwordChanged, .webhookConfigChanged, .scopeRefused,
                ])
            #expect(events.last?.address == "203.0.113.9")
            #expect(events.last?.userID == harness.credentials.user)
            #expect(events.first?.detail.contains("GET /v1/security-events") == true)
            let rows = try await harness.gateway.environment.store.database.read { db in
                try db.fetchAll(sql: "SELECT * FROM security_event", arguments: []).map(\.description)
            }
            let everything = rows.joined(separator: "\n") + String(decoding: reply.body, as: UTF8.self)
            for secret in [
                "wrong-pass-1", "fresh-pass-42", "fresh-pass-43", harness.credentials.password, code, clientToken, access,
                "whsec-0123456789abcdef", harness.credentials.apiKey,
            ] {
                #expect(!everything.contains(secret))
            }
        }
    }

    @Test func theDashboardShowsTheSecurityLogAndEndsIdleSessionsAfterFifteenMinutes() async throws {
        try await GatewayHarness.with(configure: Self.behindProxy) { harness in
            _ = try await Self.login(harness, password: "<b>wrong</b>", from: "203.0.113.77")
            let browser = try await DashboardBrowser.signedIn(harness)
            let page = try await browser.get("/dashboard/security")
            #expect(page.status == 200)
            let html = DashboardBrowser.text(page)
            #expect(html.contains("login.failed"))
            #expect(html.contains("203.0.113.77"))
            #expect(!html.contains("wrong</b>") && !html.contains("&lt;b&gt;wrong"))

            harness.clock.advance(by: 14 * 60)
            #expect(try await browser.get("/dashboard/transactions").status == 200)
            harness.clock.advance(by: 14 * 60)
            #expect(try await browser.get("/dashboard/transactions").status == 200)
            harness.clock.advance(by: 15 * 60)
            #expect(try await browser.get("/dashboard/transactions").header("Location") == "/dashboard/login")
        }
    }

    // MARK: Unit: the throttle and the client address

    @Test func theThrottleDoublesItsWaitsUpToItsCapAndForgetsAfterItsWindow() {
        var throttle = LoginThrottle()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for _ in 1...3 { throttle.recordFailure(user: "u", address: "a", knownUser: true, now: start) }
        #expect(throttle.delay(user: "u", address: "a", now: start) == 1)
        #expect(throttle.delay(user: "u", address: "b", now: start) == nil)
        #expect(throttle.delay(user: "v", address: "a", now: start) == nil)
        var now = start
        var waits: [TimeInterval] = []
        for _ in 1...8 {
            now = now.addingTimeInterval(throttle.delay(user: "u", address: "a", now: now) ?? 0)
            throttle.recordFailure(user: "u", address: "a", knownUser: true, now: now)
            waits.append(throttle.delay(user: "u", address: "a", now: now) ?? 0)
        }
        #expect(waits == [2, 4, 8, 16, 32, 60, 60, 60])
        #expect(throttle.delay(user: "u", address: "a", now: now.addingTimeInterval(30 * 60)) == nil)
        throttle.recordSuccess(user: "u", address: "a")
        #expect(throttle.delay(user: "u", address: "a", now: now) == nil)
    }

    @Test func theThrottleCountsUnknownUsersByName() {
        var throttle = LoginThrottle()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        for index in 1...4 { throttle.recordFailure(user: "ghost", address: "a\(index)", knownUser: false, now: now) }
        throttle.recordFailure(user: "real", address: "a1", knownUser: true, now: now)
        #expect(throttle.unknownUserFailures("ghost", now: now)?.count == 4)
        #expect(throttle.unknownUserFailures("real", now: now) == nil)
        #expect(throttle.unknownUserFailures("ghost", now: now.addingTimeInterval(30 * 60)) == nil)
    }

    @Test func theClientAddressComesFromXForwardedForOnlyThroughATrustedProxy() {
        let proxies: Set<String> = ["10.0.0.5", "127.0.0.1"]
        #expect(GatewayAuthMiddleware.clientAddress(peer: "198.51.100.1", forwardedFor: ["1.2.3.4"], trustedProxies: proxies)
            == "198.51.100.1")
        #expect(GatewayAuthMiddleware.clientAddress(peer: "127.0.0.1", forwardedFor: ["1.2.3.4, 198.51.100.2"], trustedProxies: proxies)
            == "198.51.100.2")
        #expect(GatewayAuthMiddleware.clientAddress(peer: "127.0.0.1", forwardedFor: ["198.51.100.3", "10.0.0.5"], trustedProxies: proxies)
            == "198.51.100.3")
        #expect(GatewayAuthMiddleware.clientAddress(peer: "127.0.0.1", forwardedFor: [], trustedProxies: proxies) == "127.0.0.1")
        #expect(GatewayAuthMiddleware.clientAddress(peer: nil, forwardedFor: ["1.2.3.4"], trustedProxies: proxies) == "unknown")
    }
}
