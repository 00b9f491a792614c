import Foundation
import GatewayAPI
import MPOSCore
import MPOSTestSupport
import Synchronization
import Testing

@testable import MPOSKit

/// A lapsed session renews itself: the gateway client logs in again once (or asks the app's
/// token provider again) and repeats the request; a 401 that survives a renewal is the
/// credentials' fault, never "unreachable".
@Suite(.timeLimit(.minutes(1))) struct SessionRenewalTests {
    static let merchant = MerchantInfo(
        id: "m_renew", name: "Renewal Shop", currency: .eur, country: "DE", categoryCode: "5999")

    /// A gateway in a transport: one valid token at a time; a login mints the next one; a
    /// lookup with the valid token finds nothing (404), with any other token 401 (4011).
    final class SessionGateway: GatewayTransport {
        struct State {
            var valid: String?
            var minted = 0
            var refuseLogins = false
            var loginsGetNoAnswer = false
            var lines: [String] = []
        }
        let state = Mutex(State())

        var logins: Int { state.withLock { $0.lines.filter { $0.hasPrefix("POST /v1/auth/login") }.count } }
        /// Ends the valid session, as its lifetime running out would.
        func lapse() { state.withLock { $0.valid = nil } }
        /// Mints a token as the app's backend would.
        func mint() -> String {
            state.withLock { state in
                state.minted += 1
                state.valid = "token-\(state.minted)"
                return "token-\(state.minted)"
            }
        }

        func send(_ request: GatewayHTTPRequest, to baseURL: URL) async throws(GatewayTransportError)
            -> GatewayHTTPResponse
        {
            let bearer = request.headers[GatewayHeaders.authorization]
            let (valid, refuse, noAnswer) = state.withLock { state in
                state.lines.append("\(request.method) \(request.path)")
                return (state.valid, state.refuseLogins, state.loginsGetNoAnswer)
            }
            if request.path == GatewayPaths.login {
                if noAnswer { throw GatewayTransportError(reason: "connection refused") }
                if refuse { return Self.error(401, GatewayErrorCode.unauthorized) }
                let session = Session(
                    accessToken: mint(), expiresAt: Date(timeIntervalSince1970: 2_000_000_000),
                    merchant: SessionRenewalTests.merchant)
                return GatewayHTTPResponse(status: 200, body: try! GatewayJSON.encoder.encode(session))
            }
            guard let valid, bearer == GatewayHeaders.bearerPrefix + valid else {
                return Self.error(401, GatewayErrorCode.tokenExpired)
            }
            if request.path == GatewayPaths.merchant {
                return GatewayHTTPResponse(
                    status: 200, body: try! GatewayJSON.encoder.encode(SessionRenewalTests.merchant))
            }
            return Self.error(404, GatewayErrorCode.notFound)
        }

        static func error(_ status: Int, _ code: Int) -> GatewayHTTPResponse {
            GatewayHTTPResponse(
                status: status,
                body: try! GatewayJSON.encoder.encode(GatewayErrorBody(code: code, message: "scripted")))
        }
    }

    static func client(
        _ gateway: SessionGateway, credentials: GatewayCredentials = .login(user: "u", password: "p")
    )
        -> GatewayClient
    {
        GatewayClient(
            baseURL: URL(string: "http://gateway.invalid")!, credentials: credentials, transport: gateway,
            clock: ManualClock())
    }

    @Test func requestsThatFindTheSessionLapsedShareOneLoginAndAreAnswered() async throws {
        let gateway = SessionGateway()
        let client = Self.client(gateway)
        try await client.login()
        gateway.lapse()
        async let first = client.lookup(IdempotencyKey())
        async let second = client.lookup(IdempotencyKey())
        let answers = await [first, second]
        #expect(answers == [.notFound, .notFound])
        #expect(gateway.logins == 2)
        #expect(await client.renewals == 1)
        // The renewed session serves the next request without another login.
        #expect(try await client.refreshMerchant() == Self.merchant)
        #expect(gateway.logins == 2)
    }

    @Test func aLookupWhoseRenewalIsRefusedSaysSoInsteadOfUnreachable() async throws {
        let gateway = SessionGateway()
        let client = Self.client(gateway)
        try await client.login()
        gateway.lapse()
        gateway.state.withLock { $0.refuseLogins = true }
        #expect(await client.lookup(IdempotencyKey()) == .sessionRefused)
        await #expect(throws: MPOSError.gatewayUnauthorized) { try await client.refreshMerchant() }
        #expect(await client.renewals == 0)
    }

    @Test func aRenewalWithoutAnAnswerLeavesTheLookupUnreachable() async throws {
        let gateway = SessionGateway()
        let client = Self.client(gateway)
        try await client.login()
        gateway.lapse()
        gateway.state.withLock { $0.loginsGetNoAnswer = true }
        #expect(await client.lookup(IdempotencyKey()) == .unreachable)
        // Once the gateway answers again, the next request renews.
        gateway.state.withLock { $0.loginsGetNoAnswer = false }
        #expect(await client.lookup(IdempotencyKey()) == .notFound)
        #expect(await client.renewals == 1)
    }

    @Test func aClientTokenProviderIsAskedAgainWhenItsTokenLapses() async throws {
        let gateway = SessionGateway()
        let asked = Mutex(0)
        let client = Self.client(
            gateway,
            credentials: .clientToken {
                asked.withLock { $0 += 1 }
                return gateway.mint()
            })
        try await client.login()
        #expect(asked.withLock { $0 } == 1)
        gateway.lapse()
        #expect(await client.lookup(IdempotencyKey()) == .notFound)
        #expect(asked.withLock { $0 } == 2)
        #expect(gateway.logins == 0)
    }

    @Test func aSessionEndedByTheAppIsNotBroughtBackByARequestThatFoundItLapsed() async throws {
        let gateway = SessionGateway()
        let client = Self.client(gateway)
        try await client.login()
        gateway.lapse()
        await client.endSession()
        #expect(try await client.renewedToken(replacing: "token-1") == nil)
        #expect(gateway.logins == 1)
    }

    @Test func aRequestBeforeAnyLoginIsNotRenewed() async throws {
        let gateway = SessionGateway()
        let client = Self.client(gateway)
        #expect(await client.lookup(IdempotencyKey()) == .sessionRefused)
        #expect(gateway.logins == 0)
    }
}
