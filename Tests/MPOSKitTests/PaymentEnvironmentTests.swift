import Foundation
import GatewayAPI
import MPOSCore
import SandboxGateway
import Testing

@testable import MPOSKit
@testable import MPOSKitNIO

/// Named environments, as the ECP seed's `initialize` takes them (`"SBX"`, `"PROD"`): parsed
/// and validated before anything starts, and held against what the gateway says it is.
@Suite(.timeLimit(.minutes(2))) struct PaymentEnvironmentTests {
    @Test func theSeedsNamesAndOursAreBothUnderstood() throws {
        #expect(EnvironmentName(named: "SBX") == .sandbox)
        #expect(EnvironmentName(named: "sandbox") == .sandbox)
        #expect(EnvironmentName(named: " prod ") == .production)
        #expect(EnvironmentName(named: "Production") == .production)
        #expect(EnvironmentName(named: "staging") == nil)
        #expect(EnvironmentName(named: "") == nil)
        let sandbox = try PaymentEnvironment(named: "SBX")
        #expect(sandbox == .sandbox && sandbox.url.absoluteString == "http://127.0.0.1:8080")
        let live = try PaymentEnvironment(named: "PROD", url: URL(string: "https://gateway.example")!)
        #expect(live.name == .production && live.url.host == "gateway.example")
    }

    @Test func productionIsHTTPSOnlyAndNeedsAURL() {
        #expect(throws: MPOSError.invalidEnvironment) {
            try PaymentEnvironment.production(URL(string: "http://gateway.example")!)
        }
        #expect(throws: MPOSError.invalidEnvironment) { try PaymentEnvironment(named: "PROD") }
        #expect(throws: MPOSError.invalidEnvironment) { try PaymentEnvironment(named: "QA") }
        do {
            _ = try PaymentEnvironment(named: "QA")
        } catch {
            #expect(error.code == 1130 && error.message.contains("SBX"))
        }
        // A sandbox may be plain http on the LAN.
        #expect(PaymentEnvironment.sandbox(URL(string: "http://10.0.0.5:8080")!).name == .sandbox)
    }

    @Test func theSandboxGatewaySaysItIsASandbox() async throws {
        let sandbox = try await Sandbox()
        let terminal = try PaymentTerminal(
            environment: .sandbox(sandbox.gateway.baseURL),
            credentials: .login(user: sandbox.credentials.user, password: sandbox.credentials.password),
            journalPath: sandbox.journalPath, transport: NIOGatewayTransport())
        try await terminal.login()
        #expect(await terminal.status.isLoggedIn)
        #expect(try await terminal.accounts.merchantInfo().environment == .sandbox)
        try await sandbox.close(terminal)
    }

    @Test func aProductionTerminalRefusesASandboxAndChargesNothing() async throws {
        let identity = try TestCertificate()
        let sandbox = try await Sandbox(gatewayTLS: identity.gatewayTLS)
        let transport = try NIOGatewayTransport(tlsConfiguration: identity.trustingClient)
        let terminal = try PaymentTerminal(
            environment: try .production(sandbox.gateway.baseURL),
            credentials: .login(user: sandbox.credentials.user, password: sandbox.credentials.password),
            journalPath: sandbox.journalPath, transport: transport)
        do {
            try await terminal.login()
            Issue.record("a production terminal logged in to a sandbox")
        } catch {
            #expect(error.code == MPOSError.Code.environmentMismatch)
            #expect(error.message.contains("made for production") && error.message.contains("sandbox gateway"))
        }
        #expect(await terminal.status.isLoggedIn == false)
        await #expect(throws: MPOSError.self) {
            try await terminal.sale(PaymentParameters(amount: 12_34, currency: .eur))
        }
        let charged = try await ReportingService(database: sandbox.gateway.environment.store.database).search(
            merchant: sandbox.credentials.merchantID, TransactionSearch())
        #expect(charged.total == 0)
        await transport.shutdown()
        try await sandbox.close(terminal)
    }
}
