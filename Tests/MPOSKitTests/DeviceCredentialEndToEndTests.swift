import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import GatewayAPI
import MPOSCore
import MPOSKitNIO
import MPOSTestSupport
import ReaderLinkTCP
import SandboxGateway
import Testing

@testable import MPOSKit

/// A terminal keeps selling when someone locks its user out: its sessions renew with its own
/// device credential, never the password, and a later start of the same terminal logs in with
/// it too; revoking the device at the gateway stops it.
@Suite(.timeLimit(.minutes(2))) struct DeviceCredentialEndToEndTests {
    /// Locks the sandbox's user with ten wrong passwords from as many addresses.
    static func lockTheUser(_ sandbox: Sandbox) async throws {
        for attempt in 1...10 {
            _ = try? await sandbox.gateway.environment.accounts.login(
                user: sandbox.credentials.user, password: "wrong-pass-\(attempt)", address: "203.0.113.\(attempt)")
        }
        await #expect(throws: GatewayError.self) {
            _ = try await sandbox.gateway.environment.accounts.login(
                user: sandbox.credentials.user, password: sandbox.credentials.password, address: "192.0.2.1")
        }
    }

    @Test func aLockedOutUserDoesNotStopARegisteredTerminal() async throws {
        let clock = ManualDateSource(start: Date())
        let sandbox = try await Sandbox(gatewayClock: clock)
        let terminal = try await sandbox.terminal()
        let file = sandbox.journalPath + ".device"
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let stored = try #require(try DeviceCredentialFile(path: file).load())
        #expect(stored.user == sandbox.credentials.user)
        #expect(try await terminal.sale(PaymentParameters(amount: 14_00, currency: .eur)).status == .approved)

        try await Self.lockTheUser(sandbox)
        // The session lapses; the next sale renews it with the device credential.
        clock.advance(by: 16 * 60)
        #expect(try await terminal.sale(PaymentParameters(amount: 15_00, currency: .eur)).status == .approved)
        #expect(await terminal.client.renewals == 1)
        let rotated = try #require(try DeviceCredentialFile(path: file).load())
        #expect(rotated.credential.deviceID == stored.credential.deviceID)
        #expect(rotated.credential.secret != stored.credential.secret)
        await terminal.disconnect()

        // The next start of the same terminal, user still locked, logs in with it as well.
        let restarted = try await sandbox.terminal()
        #expect(try await restarted.sale(PaymentParameters(amount: 16_00, currency: .eur)).status == .approved)

        // Revoked at the gateway: its session ends, and nothing renews it, not even the password.
        try await sandbox.gateway.environment.accounts.revokeDevice(
            merchantID: sandbox.credentials.merchantID, id: stored.credential.deviceID)
        await #expect(throws: MPOSError.gatewayUnauthorized) { try await restarted.accounts.merchantInfo() }
        try await sandbox.close(restarted)
    }

    @Test func aRevokedDeviceIsNotRenewedWithThePasswordAndALoginRegistersItAgain() async throws {
        let clock = ManualDateSource(start: Date())
        let sandbox = try await Sandbox(gatewayClock: clock)
        let terminal = try await sandbox.terminal(connect: false)
        let file = DeviceCredentialFile(path: sandbox.journalPath + ".device")
        let old = try #require(try file.load())
        try await sandbox.gateway.environment.accounts.revokeDevice(
            merchantID: sandbox.credentials.merchantID, id: old.credential.deviceID)
        clock.advance(by: 16 * 60)
        // The lapsed session is not renewed, although the password would still be taken.
        await #expect(throws: MPOSError.gatewayUnauthorized) { try await terminal.accounts.merchantInfo() }
        #expect(try file.load() == nil)
        // The app logs in again: the password registers the device anew.
        try await terminal.login()
        let new = try #require(try file.load())
        #expect(new.credential.deviceID != old.credential.deviceID)
        #expect(try await terminal.accounts.merchantInfo().id == sandbox.credentials.merchantID)
        try await sandbox.close()
    }

    /// An app whose backend hands it client tokens: the first login registers the device, and
    /// when the backend is down the device's own credential keeps its sessions going.
    @Test func aClientTokensDeviceSellsOnWhileTheBackendIsDown() async throws {
        let clock = ManualDateSource(start: Date())
        let sandbox = try await Sandbox(gatewayClock: clock)
        let baseURL = sandbox.gateway.baseURL
        let apiKey = sandbox.credentials.apiKey
        let backendUp = Locked(true)
        let terminal = try PaymentTerminal(
            environment: baseURL,
            credentials: .clientToken {
                struct BackendDown: Error {}
                guard backendUp.withLock({ $0 }) else { throw BackendDown() }
                var request = URLRequest(url: baseURL.appendingPathComponent("v1/client-tokens"))
                request.httpMethod = "POST"
                request.setValue(apiKey, forHTTPHeaderField: GatewayHeaders.apiKey)
                let (data, _) = try await URLSession.shared.data(for: request)
                return try GatewayJSON.makeDecoder().decode(ClientToken.self, from: data).token
            }, journalPath: sandbox.journalPath, transport: NIOGatewayTransport())
        await terminal.setDeviceChecks(DeviceChecks(probe: DeviceOnGatewayClock(clock)))
        try await terminal.login()
        let stored = try #require(try DeviceCredentialFile(path: sandbox.journalPath + ".device").load())
        #expect(stored.user == nil)
        let link = try await TCPTransport.connect(host: "127.0.0.1", port: sandbox.server.port)
        try await terminal.reader.connect(transport: link, secret: Sandbox.secret)
        #expect(try await terminal.sale(PaymentParameters(amount: 17_00, currency: .eur)).status == .approved)

        backendUp.withLock { $0 = false }
        clock.advance(by: 16 * 60)
        #expect(try await terminal.sale(PaymentParameters(amount: 18_00, currency: .eur)).status == .approved)
        let devices = try await sandbox.gateway.environment.accounts.devices(merchantID: sandbox.credentials.merchantID)
        #expect(devices.devices.map(\.id) == [stored.credential.deviceID])
        #expect(devices.devices.first?.lastUsedAt != nil)
        try await sandbox.close(terminal)
    }

    @Test func aCredentialFileOthersMayReadIsRefused() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mposkit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("journal.sqlite.device").path
        let store = DeviceCredentialFile(path: path)
        try store.save(
            StoredDeviceCredential(
                gateway: "http://127.0.0.1:1", user: "u", credential: DeviceCredential(deviceID: "dev_1", secret: "dr_1")))
        #expect(try store.load()?.credential.secret == "dr_1")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        #expect(throws: MPOSError.deviceCredentialStoreFailed) { _ = try store.load() }
        try Data("not json".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        #expect(throws: MPOSError.deviceCredentialStoreFailed) { _ = try store.load() }
        try store.remove()
        #expect(try store.load() == nil)
    }
}
