import Foundation
import GatewayAPI
import MPOSCore
import MPOSKitNIO
import MPOSTestSupport
import ReaderLinkTCP
import Testing

@testable import MPOSKit

/// The fallback rules of a session cached across processes, each at its edge: the offline
/// window, the user and gateway it is bound to.
@Suite(.timeLimit(.minutes(1)))
struct OfflineAuthorizationRuleTests {
    static let online = Date(timeIntervalSince1970: 1_800_000_000)
    static let gateway = "http://127.0.0.1:8080"

    static func authorization(hours: Int = 24) -> OfflineAuthorization {
        OfflineAuthorization(
            id: UUID(), gateway: gateway, userHash: OfflineAuthorization.userHash("alice"),
            merchant: MerchantInfo(id: "m1", name: "Corner Cafe", currency: .eur, country: "DE", categoryCode: "5814"),
            policy: OfflinePolicy(maximumHoursOffline: hours), onlineAt: online)
    }

    @Test func theWindowHoldsToItsLastSecondAndNotOneMore() {
        let cached = Self.authorization(hours: 24)
        #expect(cached.refusal(gateway: Self.gateway, user: "alice", now: Self.online.addingTimeInterval(86_400)) == nil)
        let late = cached.refusal(gateway: Self.gateway, user: "alice", now: Self.online.addingTimeInterval(86_401))
        #expect(late?.hasPrefix("TOKEN_EXPIRED_S&F") == true)
    }

    @Test func aShorterPolicyWindowIsTheOneApplied() {
        let cached = Self.authorization(hours: 2)
        #expect(cached.refusal(gateway: Self.gateway, user: "alice", now: Self.online.addingTimeInterval(7_200)) == nil)
        #expect(cached.refusal(gateway: Self.gateway, user: "alice", now: Self.online.addingTimeInterval(7_201)) != nil)
    }

    @Test func aDateBeforeTheOnlineSessionIsRefused() {
        let refusal = Self.authorization().refusal(
            gateway: Self.gateway, user: "alice", now: Self.online.addingTimeInterval(-1))
        #expect(refusal?.hasPrefix("LOCAL_TIME_TAMPERING") == true)
    }

    @Test func anotherUserOrGatewayCannotRideOnTheSession() {
        let cached = Self.authorization()
        let now = Self.online.addingTimeInterval(60)
        #expect(cached.refusal(gateway: Self.gateway, user: "alice", now: now) == nil)
        #expect(cached.refusal(gateway: Self.gateway, user: "bob", now: now)?.hasPrefix("NO_TOKEN") == true)
        #expect(cached.refusal(gateway: "http://127.0.0.1:9090", user: "alice", now: now)?.hasPrefix("NO_TOKEN") == true)
    }

}

/// A gateway that never answers: every request is lost before it leaves.
final class UnreachableGateway: GatewayTransport {
    private let requests = Locked<[String]>([])

    /// `METHOD path` of every request tried, in order.
    var tried: [String] { requests.withLock { $0 } }

    func send(_ request: GatewayHTTPRequest, to baseURL: URL) async throws(GatewayTransportError) -> GatewayHTTPResponse {
        requests.withLock { $0.append("\(request.method) \(request.path)") }
        throw GatewayTransportError(reason: "connection refused")
    }
}

/// A terminal started with the gateway already down runs on the session the last online
/// login cached, against the real sandbox and the simulated reader over TCP.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct OfflineSessionTests {
    static func terminal(
        _ sandbox: Sandbox, user: String? = nil, password: String? = nil, transport: any GatewayTransport
    ) throws -> PaymentTerminal {
        try PaymentTerminal(
            environment: sandbox.gateway.baseURL,
            credentials: .login(user: user ?? sandbox.credentials.user, password: password ?? sandbox.credentials.password),
            journalPath: sandbox.journalPath, transport: transport, safeRequestRetryDeadline: .zero)
    }

    static func connect(_ terminal: PaymentTerminal, _ sandbox: Sandbox) async throws {
        let link = try await TCPTransport.connect(host: "127.0.0.1", port: sandbox.server.port)
        try await terminal.reader.connect(transport: link, secret: Sandbox.secret)
    }

    @Test func aTerminalStartedWithTheGatewayDownSellsOfflineAndTheNextLoginForwards() async throws {
        let sandbox = try await Sandbox()
        let online = try await sandbox.terminal(connect: false)
        await online.disconnect()
        // What the login sealed names neither the user (only its hash) nor a password or token.
        let sealed = try #require(try await online.offline.store.contents().authorization)
        let plaintext = try #require(String(data: try GatewayJSON.encoder.encode(sealed), encoding: .utf8))
        #expect(sealed.merchant.userID == nil && sealed.userHash == OfflineAuthorization.userHash(sandbox.credentials.user))
        // The bootstrap user is called "sandbox", as the gateway's environment is: that value aside.
        #expect(sealed.merchant.environment == .sandbox)
        let values = plaintext.replacingOccurrences(of: "\"environment\":\"sandbox\"", with: "")
        #expect(!values.contains(sandbox.credentials.user) && !values.contains(sandbox.credentials.password))

        let down = UnreachableGateway()
        let offline = try Self.terminal(sandbox, transport: down)
        #expect(try await offline.login(offlineFallback: true).isEmpty)
        #expect(await offline.status.isOfflineOnly)
        try await Self.connect(offline, sandbox)
        let events = Locked<[TerminalEvent]>([])
        offline.events.addHandler { event in events.withLock { $0.append(event) } }
        let result = try await offline.sale(PaymentParameters(amount: 21_00, currency: .eur, offlineAllowed: true))
        #expect(result.status == .approvedOffline && result.offlineID != nil)
        // Nothing says the gateway was asked or an answer was lost.
        #expect(!events.withLock { $0 }.contains { if case .authorizing = $0 { true } else { false } })
        #expect(!events.withLock { $0 }.contains { if case .recovering = $0 { true } else { false } })
        // One fast failure, the login; the sale itself tried nothing.
        #expect(down.tried == ["POST \(GatewayPaths.login)"])
        let online2 = await #expect(throws: MPOSError.self) {
            try await offline.sale(PaymentParameters(amount: 22_00, currency: .eur))
        }
        #expect(online2?.code == MPOSError.Code.offlineNoToken && online2?.message.hasPrefix("NO_TOKEN") == true)
        await offline.disconnect()

        // The gateway answers again: a normal login, and the stored sale is forwarded once.
        let back = try Self.terminal(sandbox, transport: NIOGatewayTransport())
        try await back.login(offlineFallback: true)
        #expect(await !back.status.isOfflineOnly)
        try await back.offline.forward()
        let listed = try await back.offline.list().payments
        let outcome = try #require(listed.first?.forwarded)
        let sales = try await back.reports.searchTransactions().items.filter { $0.kind == .sale }
        #expect(outcome.approved && sales.map(\.id) == [outcome.transactionID])
        try await sandbox.close(back)
    }

    @Test func aRefusedPasswordNeverFallsBackToOffline() async throws {
        let sandbox = try await Sandbox()
        _ = try await sandbox.terminal(connect: false)
        // Another device: one with no device credential, whose login stands or falls with the password.
        let wrong = try PaymentTerminal(
            environment: sandbox.gateway.baseURL,
            credentials: .login(user: sandbox.credentials.user, password: "not-the-password"),
            journalPath: sandbox.journalPath, transport: NIOGatewayTransport(), safeRequestRetryDeadline: .zero,
            deviceCredentials: DeviceCredentialFile(path: sandbox.journalPath + ".other-device"))
        let error = await #expect(throws: MPOSError.self) { try await wrong.login(offlineFallback: true) }
        #expect(error?.code == MPOSError.Code.gatewayUnauthorized)
        #expect(await !wrong.status.isOfflineOnly)
        try await sandbox.close()
    }

    @Test func anotherUserOrNoFallbackGetsTheUnreachableError() async throws {
        let sandbox = try await Sandbox()
        _ = try await sandbox.terminal(connect: false)
        let stranger = try Self.terminal(sandbox, user: "someone-else", transport: UnreachableGateway())
        let error = await #expect(throws: MPOSError.self) { try await stranger.login(offlineFallback: true) }
        #expect(error?.code == MPOSError.Code.gatewayUnreachable && error?.message.contains("NO_TOKEN") == true)
        #expect(await !stranger.status.isOfflineOnly)

        let notAsked = try Self.terminal(sandbox, transport: UnreachableGateway())
        let plain = await #expect(throws: MPOSError.self) { try await notAsked.login() }
        #expect(plain?.code == MPOSError.Code.gatewayUnreachable)
        #expect(await !notAsked.status.isOfflineOnly)
        try await sandbox.close()
    }

    /// A process that comes up offline-only checks a restart and a moved clock against the
    /// online login that sealed its session, as that login's own process would: the time since
    /// boot is the device's.
    @Test func anOfflineOnlyTerminalKeepsTheRestartAndClockChecksOfTheSealingLogin() async throws {
        let device = ScriptedDevice(DeviceChecksTests.sound)
        let (sandbox, online) = try await DeviceChecksEndToEndTests.terminal(device)
        await online.disconnect()
        #expect(try await online.offline.store.contents().authorization?.checkpoint?.bootID == "boot-a")

        let offline = try Self.terminal(sandbox, transport: UnreachableGateway())
        await offline.setDeviceChecks(DeviceChecks(probe: device))
        try await offline.login(offlineFallback: true)
        try await Self.connect(offline, sandbox)
        var restarted = DeviceChecksTests.later(600, skew: 0)
        restarted.bootID = "boot-b"
        device.set(restarted)
        let refusal = await DeviceChecksEndToEndTests.refusal(offline, DeviceChecksEndToEndTests.sale(24_00, offline: true))
        #expect(refusal?.code == MPOSError.Code.systemChange, "\(refusal?.message ?? "approved")")
        device.set(DeviceChecksTests.later(600, skew: 200))
        let moved = await DeviceChecksEndToEndTests.refusal(offline, DeviceChecksEndToEndTests.sale(24_01, offline: true))
        #expect(moved?.code == MPOSError.Code.systemChange, "\(moved?.message ?? "approved")")
        device.set(DeviceChecksTests.later(600, skew: 0))
        let sold = try await offline.sale(DeviceChecksEndToEndTests.sale(24_02, offline: true))
        #expect(sold.status == .approvedOffline)
        await offline.disconnect()
        try await sandbox.close()
    }
}
