import Foundation
import GatewayAPI
import Hummingbird
import SandboxGateway
import Testing

@Suite("Accounts and sessions over HTTP", .timeLimit(.minutes(2)), .postgresServer)
struct AccountTests {
    @Test(arguments: GatewayTestEngine.allCases) func healthAnswersWithoutCredentials(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let reply = try await harness.send(.get, GatewayPaths.health)
            #expect(reply.status == 200)
            #expect(String(decoding: reply.body, as: UTF8.self) == #"{"status":"ok","database":"reachable"}"#)
            #expect(harness.gateway.port > 0)
            #expect(harness.gateway.baseURL.absoluteString == "http://127.0.0.1:\(harness.gateway.port)")
        }
    }

    @Test func firstStartBootstrapsOnceAndCredentialsSurviveRestart() async throws {
        let clock = ManualDateSource()
        let harness = try await GatewayHarness.start(clock: clock)
        let credentials = harness.credentials
        #expect(AccountService.passwordPolicyProblem(credentials.password, user: credentials.user) == nil)
        #expect(credentials.apiKey.hasPrefix("sk_sandbox_"))
        await harness.gateway.shutdown()

        let again = try await SandboxGateway.start(
            .init(
                port: 0, databasePath: harness.directory.appendingPathComponent("gateway.sqlite").path,
                now: clock.dateProvider, passwordHashRounds: 1_000, logLevel: .critical))
        #expect(again.credentials == nil)
        let second = GatewayHarness(gateway: again, clock: clock, directory: harness.directory, credentials: credentials)
        _ = try await second.login()
        await second.stop()
    }

    @Test func databaseStoresNoSecretsInClear() async throws {
        let harness = try await GatewayHarness.start()
        _ = try await harness.login()
        await harness.gateway.shutdown()
        var bytes = Data()
        for suffix in ["", "-wal"] {
            if let data = FileManager.default.contents(
                atPath: harness.directory.appendingPathComponent("gateway.sqlite" + suffix).path)
            {
                bytes.append(data)
            }
        }
        #expect(!bytes.isEmpty)
        #expect(bytes.range(of: Data(harness.credentials.password.utf8)) == nil)
        #expect(bytes.range(of: Data(harness.credentials.apiKey.utf8)) == nil)
        await harness.stop()
    }

    @Test(arguments: GatewayTestEngine.allCases) func loginSucceedsAndMerchantInfoFollows(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let reply = try await harness.send(
                .post, GatewayPaths.login,
                json: LoginRequest(user: harness.credentials.user, password: harness.credentials.password))
            #expect(reply.status == 200)
            let session = try reply.decode(Session.self)
            #expect(session.merchant.id == harness.credentials.merchantID)
            #expect(session.expiresAt == harness.clock.now().addingTimeInterval(15 * 60))

            let merchant = try await harness.send(.get, GatewayPaths.merchant, token: session.accessToken)
            #expect(merchant.status == 200)
            let info = try merchant.decode(MerchantInfo.self)
            #expect(info.id == harness.credentials.merchantID)
            #expect(info.userID == harness.credentials.user)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func wrongPasswordAndUnknownUserAre4010(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let wrong = try await harness.send(
                .post, GatewayPaths.login, json: LoginRequest(user: harness.credentials.user, password: "nope12345"))
            #expect(wrong.status == 401)
            #expect(wrong.error?.code == GatewayErrorCode.unauthorized)
            let unknown = try await harness.send(
                .post, GatewayPaths.login, json: LoginRequest(user: "nobody", password: "nope12345"))
            #expect(unknown.status == 401)
            #expect(unknown.error?.code == GatewayErrorCode.unauthorized)
            #expect(!String(decoding: wrong.body, as: UTF8.self).contains("nope12345"))
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func accessTokenExpirySlidesWithUse(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let token = try await harness.login()
            for _ in 1...3 {
                harness.clock.advance(by: 14 * 60)
                #expect(try await harness.send(.get, GatewayPaths.merchant, token: token).status == 200)
            }
            harness.clock.advance(by: 15 * 60)
            let expired = try await harness.send(.get, GatewayPaths.merchant, token: token)
            #expect(expired.status == 401)
            #expect(expired.error?.code == GatewayErrorCode.tokenExpired)
            #expect(try await harness.send(.get, GatewayPaths.merchant, token: token).error?.code == GatewayErrorCode.unauthorized)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func logoutEndsTheSession(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let token = try await harness.login()
            #expect(try await harness.send(.post, GatewayPaths.logout, token: token).status == 204)
            #expect(try await harness.send(.get, GatewayPaths.merchant, token: token).status == 401)
            #expect(try await harness.send(.get, GatewayPaths.merchant).error?.code == GatewayErrorCode.unauthorized)
            #expect(try await harness.send(.get, GatewayPaths.merchant, token: "garbage").status == 401)
        }
    }

    @Test func changePasswordChecksOldPolicyAndConfirmation() async throws {
        try await GatewayHarness.with { harness in
            let token = try await harness.login()
            let old = harness.credentials.password
            func change(_ o: String, _ n: String, _ c: String) async throws -> GatewayHarness.Reply {
                try await harness.send(
                    .post, GatewayPaths.changePassword,
                    json: ChangePasswordRequest(oldPassword: o, newPassword: n, confirmation: c), token: token)
            }
            #expect(try await change("wrong1234", "newpass123", "newpass123").error?.code == GatewayErrorCode.wrongPassword)
            #expect(try await change(old, "newpass123", "newpass124").error?.code == GatewayErrorCode.passwordPolicy)
            #expect(try await change(old, "short1", "short1").error?.code == GatewayErrorCode.passwordPolicy)
            #expect(try await change(old, "lettersonly", "lettersonly").error?.code == GatewayErrorCode.passwordPolicy)
            #expect(try await change(old, "1234567890", "1234567890").error?.code == GatewayErrorCode.passwordPolicy)
            #expect(try await change(old, "sandbox", "sandbox").error?.code == GatewayErrorCode.passwordPolicy)
            #expect(try await change(old, "newpass123", "newpass123").status == 200)
            _ = try await harness.login(password: "newpass123")
            #expect(
                try await harness.send(
                    .post, GatewayPaths.login, json: LoginRequest(user: harness.credentials.user, password: old)
                ).status == 401)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func clientTokenCannotChangePassword(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let minted = try await harness.send(.post, GatewayPaths.clientTokens, apiKey: harness.credentials.apiKey)
            let token = try minted.decode(ClientToken.self).token
            let reply = try await harness.send(
                .post, GatewayPaths.changePassword,
                json: ChangePasswordRequest(oldPassword: "a", newPassword: "newpass123", confirmation: "newpass123"),
                token: token)
            #expect(reply.status == 403)
            #expect(reply.error?.code == GatewayErrorCode.forbidden)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func forgotUserIDAndResetPasswordWriteTheOutbox(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let apiKey = harness.credentials.apiKey

            let forgot = try await harness.send(
                .post, GatewayPaths.forgotUserID, json: ForgotUserIDRequest(email: harness.credentials.email.uppercased()))
            #expect(forgot.status == 202)
            let unknown = try await harness.send(
                .post, GatewayPaths.forgotUserID, json: ForgotUserIDRequest(email: "nobody@example.com"))
            #expect(unknown.status == 202)
            var outbox = try await harness.send(.get, GatewayPaths.outbox, apiKey: apiKey).decode(OutboxList.self)
            #expect(outbox.messages.count == 1)
            #expect(outbox.messages.first?.recipient == harness.credentials.email)
            #expect(outbox.messages.first?.body.contains(harness.credentials.user) == true)

            let token = try await harness.login()
            let reset = try await harness.send(
                .post, GatewayPaths.resetPassword, json: ResetPasswordRequest(user: harness.credentials.user))
            #expect(reset.status == 202)
            #expect(
                try await harness.send(.post, GatewayPaths.resetPassword, json: ResetPasswordRequest(user: "ghost")).status
                    == 202)
            // Asking changes nothing: the session goes on until the mailed code is redeemed.
            #expect(try await harness.send(.get, GatewayPaths.merchant, token: token).status == 200)

            outbox = try await harness.send(.get, GatewayPaths.outbox, apiKey: apiKey).decode(OutboxList.self)
            #expect(outbox.messages.count == 2)
            let mail = try #require(outbox.messages.first)
            #expect(mail.recipient == harness.credentials.email)
            let code = try #require(
                mail.body.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first { $0.hasPrefix("pr_") })
            let confirmed = try await harness.send(
                .post, GatewayPaths.confirmPasswordReset,
                json: ConfirmPasswordResetRequest(code: code, newPassword: "fresh-pass-42", confirmation: "fresh-pass-42"))
            #expect(confirmed.status == 200)
            #expect(try await harness.send(.get, GatewayPaths.merchant, token: token).status == 401)
            let fresh = try await harness.login(password: "fresh-pass-42")
            #expect(try await harness.send(.get, GatewayPaths.outbox, token: fresh).status == 200)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func clientTokensAreMintedWithTheAPIKeyAndExpire(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            #expect(try await harness.send(.post, GatewayPaths.clientTokens).status == 401)
            #expect(try await harness.send(.post, GatewayPaths.clientTokens, apiKey: "sk_sandbox_bad").status == 401)
            let access = try await harness.login()
            #expect(try await harness.send(.post, GatewayPaths.clientTokens, token: access).status == 403)

            let minted = try await harness.send(
                .post, GatewayPaths.clientTokens, json: ClientTokenRequest(lifetimeSeconds: 120),
                apiKey: harness.credentials.apiKey)
            #expect(minted.status == 201)
            let token = try minted.decode(ClientToken.self)
            #expect(token.merchantID == harness.credentials.merchantID)
            #expect(token.expiresAt == harness.clock.now().addingTimeInterval(120))

            let merchant = try await harness.send(.get, GatewayPaths.merchant, token: token.token)
            #expect(merchant.status == 200)
            #expect(try merchant.decode(MerchantInfo.self).userID == nil)
            // The API key itself is not a general credential.
            #expect(try await harness.send(.get, GatewayPaths.merchant, apiKey: harness.credentials.apiKey).status == 403)

            harness.clock.advance(by: 119)
            #expect(try await harness.send(.get, GatewayPaths.merchant, token: token.token).status == 200)
            harness.clock.advance(by: 1)
            let expired = try await harness.send(.get, GatewayPaths.merchant, token: token.token)
            #expect(expired.error?.code == GatewayErrorCode.tokenExpired)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func everyQueryIsScopedToTheCallersMerchant(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let other = try await harness.gateway.environment.accounts.createMerchant(
                name: "Other Shop", user: "other", email: "other@example.com", password: "otherpass1")
            _ = try await harness.send(.post, GatewayPaths.resetPassword, json: ResetPasswordRequest(user: "other"))

            let mine = try await harness.send(.get, GatewayPaths.outbox, apiKey: harness.credentials.apiKey)
            #expect(try mine.decode(OutboxList.self).messages.isEmpty)
            let theirs = try await harness.send(.get, GatewayPaths.outbox, apiKey: other.apiKey)
            #expect(try theirs.decode(OutboxList.self).messages.count == 1)

            let myToken = try await harness.login()
            let info = try await harness.send(.get, GatewayPaths.merchant, token: myToken).decode(MerchantInfo.self)
            #expect(info.id == harness.credentials.merchantID)
            let minted = try await harness.send(.post, GatewayPaths.clientTokens, apiKey: other.apiKey)
            #expect(try minted.decode(ClientToken.self).merchantID == other.merchantID)
        }
    }
}

/// Lengths are counted as the OpenAPI document counts them (Unicode scalars), so a name that
/// looks short on screen but carries combining marks is refused as the document says (the
/// contract fuzzer found one accepted).
@Suite("Lengths as the contract counts them", .timeLimit(.minutes(1)))
struct ContractLengthTests {
    @Test func aMerchantNameOfCombiningMarksLongerThanTheDocumentSaysIsRefused() async throws {
        try await GatewayHarness.with { harness in
            let marked = String(repeating: "a\u{0301}", count: 60)  // 60 characters on screen, 120 scalars
            #expect(marked.count == 60 && marked.unicodeScalars.count == 120)
            let reply = try await harness.send(
                .post, GatewayPaths.merchants, json: CreateMerchantRequest(name: marked),
                apiKey: harness.credentials.apiKey)
            #expect(reply.status == 400)
            #expect(reply.error?.code == GatewayErrorCode.invalidValue)
            let fits = try await harness.send(
                .post, GatewayPaths.merchants, json: CreateMerchantRequest(name: String(repeating: "a\u{0301}", count: 50)),
                apiKey: harness.credentials.apiKey)
            #expect(fits.status == 201)
        }
    }

    @Test func anExternalIDIsCountedInUnicodeScalars() {
        #expect(GatewayValidation.isValidExternalID(String(repeating: "e\u{0301}", count: 25)))
        #expect(!GatewayValidation.isValidExternalID(String(repeating: "e\u{0301}", count: 26)))
    }
}
