import Foundation
import GatewayAPI
import Hummingbird
@testable import SandboxGateway
import Testing

/// Devices have their own credentials: a login from the SDK registers the device, the device
/// renews its sessions with a secret that changes at every use, and neither a locked user nor
/// a reset or changed password stops it; revoking the device does.
@Suite("Device credentials over HTTP", .timeLimit(.minutes(3)), .postgresServer)
struct DeviceCredentialTests {
    static func register(_ harness: GatewayHarness, name: String = "Counter 1") async throws -> Session {
        let reply = try await harness.send(
            .post, GatewayPaths.login,
            json: LoginRequest(
                user: harness.credentials.user, password: harness.credentials.password,
                device: DeviceRegistration(name: name)))
        #expect(reply.status == 200)
        return try reply.decode(Session.self)
    }

    static func renew(_ harness: GatewayHarness, _ credential: DeviceCredential) async throws -> GatewayHarness.Reply {
        try await harness.send(
            .post, GatewayPaths.deviceSession,
            json: DeviceSessionRequest(deviceID: credential.deviceID, secret: credential.secret))
    }

    @Test(arguments: GatewayTestEngine.allCases)
    func aDeviceRenewsWithASecretThatChangesAtEveryUse(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let first = try #require(try await Self.register(harness).deviceCredential)
            #expect(first.deviceID.hasPrefix("dev_") && first.secret.hasPrefix("dr_"))
            // A person's login in a browser gets none.
            let plain = try await harness.send(
                .post, GatewayPaths.login,
                json: LoginRequest(user: harness.credentials.user, password: harness.credentials.password))
            #expect(try plain.decode(Session.self).deviceCredential == nil)

            let renewed = try await Self.renew(harness, first)
            #expect(renewed.status == 200)
            let session = try renewed.decode(Session.self)
            let second = try #require(session.deviceCredential)
            #expect(second.deviceID == first.deviceID && second.secret != first.secret)
            #expect(try await harness.send(.get, GatewayPaths.merchant, token: session.accessToken).status == 200)

            // The answer carrying `second` was lost: `first` is taken once more, and `second`
            // is then replaced.
            let again = try await Self.renew(harness, first)
            let third = try #require(try again.decode(Session.self).deviceCredential)
            #expect(try await Self.renew(harness, second).status == 401)
            let fourth = try #require(try await Self.renew(harness, third).decode(Session.self).deviceCredential)
            // Once the newer secret was used, the old one is dead.
            #expect(try await Self.renew(harness, first).status == 401)
            #expect(try await Self.renew(harness, fourth).status == 200)
            // Only hashes are stored.
            let stored = try await harness.gateway.environment.store.database.read { db in
                try db.fetchAll(sql: "SELECT * FROM device_credential", arguments: []).map(\.description)
            }.joined()
            for secret in [first, second, third, fourth].map(\.secret) { #expect(!stored.contains(secret)) }
        }
    }

    @Test(arguments: GatewayTestEngine.allCases)
    func aLockedResetOrChangedUserDoesNotStopTheDevice(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine, configure: AccountSecurityTests.behindProxy) { harness in
            var credential = try #require(try await Self.register(harness).deviceCredential)
            let deviceToken = try await Self.renew(harness, credential).decode(Session.self)
            credential = try #require(deviceToken.deviceCredential)
            for attempt in 1...10 {
                _ = try await AccountSecurityTests.login(harness, password: "wrong-pass-1", from: "203.0.113.\(attempt)")
            }
            #expect(
                try await AccountSecurityTests.login(harness, password: harness.credentials.password).error?.code
                    == GatewayErrorCode.locked)
            // Locked: the device still opens sessions and takes payments.
            let renewed = try await Self.renew(harness, credential)
            #expect(renewed.status == 200)
            let session = try renewed.decode(Session.self)
            credential = try #require(session.deviceCredential)
            let cash = try await harness.send(
                .post, GatewayPaths.cashPayment,
                json: CashPaymentRequest(amount: 1_250, currency: .eur), token: session.accessToken,
                idempotencyKey: "device-cash-1")
            #expect(cash.status == 200)
            // ...but carries a terminal's scopes only.
            #expect(
                try await harness.send(.get, GatewayPaths.outbox, token: session.accessToken).error?.code
                    == GatewayErrorCode.insufficientScope)
            #expect(
                try await harness.send(
                    .post, GatewayPaths.changePassword,
                    json: ChangePasswordRequest(oldPassword: "a", newPassword: "fresh-pass-42", confirmation: "fresh-pass-42"),
                    token: session.accessToken
                ).error?.code == GatewayErrorCode.forbidden)

            // A reset redeemed ends the user's sessions, not the device's.
            _ = try await harness.send(
                .post, GatewayPaths.resetPassword, json: ResetPasswordRequest(user: harness.credentials.user))
            let code = try await AccountSecurityTests.newestResetCode(harness)
            #expect(
                try await harness.send(
                    .post, GatewayPaths.confirmPasswordReset,
                    json: ConfirmPasswordResetRequest(code: code, newPassword: "fresh-pass-42", confirmation: "fresh-pass-42")
                ).status == 200)
            #expect(try await harness.send(.get, GatewayPaths.merchant, token: session.accessToken).status == 200)
            #expect(try await Self.renew(harness, credential).status == 200)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases)
    func revokingADeviceEndsItsSessionsAndRefusesItsCredential(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let registered = try await Self.register(harness, name: "Till <2>")
            let credential = try #require(registered.deviceCredential)
            let renewed = try await Self.renew(harness, credential).decode(Session.self)
            let access = try await harness.login()

            let list = try await harness.send(.get, GatewayPaths.devices, token: access).decode(DeviceList.self)
            #expect(list.devices.map(\.id) == [credential.deviceID])
            #expect(list.devices.first?.name == "Till <2>")
            #expect(list.devices.first?.lastUsedAt != nil)
            let path = GatewayRoutes.revokeDevice.path(id: credential.deviceID)
            // Another merchant cannot see or revoke it; a device session may not revoke.
            let other = try await harness.gateway.environment.accounts.createMerchant(
                name: "Other Shop", user: "other", email: "other@example.com", password: "otherpass1")
            #expect(try await harness.send(.delete, path, apiKey: other.apiKey).status == 404)
            #expect(try await harness.send(.delete, path, token: renewed.accessToken).status == 403)

            #expect(try await harness.send(.delete, path, token: access).status == 204)
            #expect(try await harness.send(.get, GatewayPaths.merchant, token: renewed.accessToken).status == 401)
            #expect(try await harness.send(.get, GatewayPaths.merchant, token: registered.accessToken).status == 200)
            #expect(try await Self.renew(harness, try #require(renewed.deviceCredential)).status == 401)
            let after = try await harness.send(.get, GatewayPaths.devices, apiKey: harness.credentials.apiKey)
                .decode(DeviceList.self)
            #expect(after.devices.first?.revokedAt != nil)

            let events = try await harness.send(.get, GatewayPaths.securityEvents, token: access)
                .decode(SecurityEventList.self).events.map(\.kind)
            #expect(events.contains(.deviceRegistered))
            #expect(events.contains(.deviceRevoked))
            #expect(events.contains(.deviceCredentialRefused))
        }
    }

    @Test func theDashboardListsDevicesAndRevokesOne() async throws {
        try await GatewayHarness.with { harness in
            let credential = try #require(try await Self.register(harness, name: "<Counter>").deviceCredential)
            let browser = try await DashboardBrowser.signedIn(harness)
            let page = try await browser.get("/dashboard/devices")
            let html = DashboardBrowser.text(page)
            #expect(html.contains("&lt;Counter&gt;") && !html.contains("<Counter>"))
            #expect(html.contains(credential.deviceID))
            // Without the session's CSRF token nothing is revoked.
            let forged = try await browser.post("/dashboard/devices/revoke", [("device", credential.deviceID)])
            #expect(forged.status == 403)
            #expect(try await Self.renew(harness, credential).status == 200)
            let csrf = DashboardBrowser.hidden("csrf", in: page)
            let revoked = try await browser.post(
                "/dashboard/devices/revoke", [("csrf", csrf), ("device", credential.deviceID)])
            #expect(revoked.status == 303)
            let list = try await harness.send(.get, GatewayPaths.devices, apiKey: harness.credentials.apiKey)
                .decode(DeviceList.self)
            #expect(list.devices.first?.revokedAt != nil)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases)
    func aClientTokensDeviceRenewsAsClientTokensUntilRevoked(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let clientToken = try await AccountSecurityTests.mintClientToken(harness)
            let registered = try await harness.send(
                .post, GatewayPaths.devices, json: DeviceRegistration(name: "Kiosk 7"), token: clientToken)
            #expect(registered.status == 201)
            let credential = try registered.decode(DeviceCredential.self)
            let renewed = try await Self.renew(harness, credential)
            #expect(renewed.status == 200)
            let session = try renewed.decode(Session.self)
            #expect(session.accessToken.hasPrefix("ct_"))
            #expect(session.merchant.userID == nil)
            #expect(session.expiresAt == harness.clock.now().addingTimeInterval(15 * 60))
            let cash = try await harness.send(
                .post, GatewayPaths.cashPayment, json: CashPaymentRequest(amount: 2_50, currency: .eur),
                token: session.accessToken, idempotencyKey: "kiosk-cash-1")
            #expect(cash.status == 200)
            #expect(
                try await harness.send(.get, GatewayPaths.outbox, token: session.accessToken).error?.code
                    == GatewayErrorCode.insufficientScope)
            // A device's session makes no more devices.
            let more = try await harness.send(
                .post, GatewayPaths.devices, json: DeviceRegistration(name: "Another"), token: session.accessToken)
            #expect(more.error?.code == GatewayErrorCode.forbidden)

            let access = try await harness.login()
            #expect(
                try await harness.send(.delete, GatewayRoutes.revokeDevice.path(id: credential.deviceID), token: access)
                    .status == 204)
            #expect(try await harness.send(.get, GatewayPaths.merchant, token: session.accessToken).status == 401)
            #expect(try await Self.renew(harness, try #require(session.deviceCredential)).status == 401)
        }
    }

    @Test func badDeviceRequestsAreRefusedWithoutAnyChange() async throws {
        try await GatewayHarness.with { harness in
            let longName = try await harness.send(
                .post, GatewayPaths.login,
                json: LoginRequest(
                    user: harness.credentials.user, password: harness.credentials.password,
                    device: DeviceRegistration(name: String(repeating: "x", count: 65))))
            #expect(longName.error?.code == GatewayErrorCode.invalidValue)
            let empty = try await harness.send(
                .post, GatewayPaths.deviceSession, json: DeviceSessionRequest(deviceID: "", secret: "x"))
            #expect(empty.error?.code == GatewayErrorCode.invalidValue)
            let unknown = try await harness.send(
                .post, GatewayPaths.deviceSession, json: DeviceSessionRequest(deviceID: "dev_nope", secret: "dr_nope"))
            #expect(unknown.error?.code == GatewayErrorCode.unauthorized)
            let list = try await harness.send(.get, GatewayPaths.devices, apiKey: harness.credentials.apiKey)
                .decode(DeviceList.self)
            #expect(list.devices.isEmpty)
        }
    }
}
