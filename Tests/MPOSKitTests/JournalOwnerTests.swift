import Foundation
import GRDB
import MPOSCore
import SandboxGateway
import Testing

@testable import MPOSKit

/// A journal belongs to the gateway and merchant of its first login: another gateway or
/// merchant is refused, and never asked about (nor acts on) the journal's attempts.
@Suite(.timeLimit(.minutes(3)))
struct JournalOwnerTests {
    static func owner(_ gateway: String, _ merchant: String) -> JournalOwner {
        JournalOwner(gateway: gateway, merchantID: merchant)
    }

    static func temporaryJournalPath() -> (directory: URL, path: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mposkit-\(UUID().uuidString)")
        return (directory, directory.appendingPathComponent("journal.sqlite").path)
    }

    /// The base URL as the terminal's client keeps it (no trailing slash).
    static func gateway(_ sandbox: Sandbox) -> String {
        var text = sandbox.gateway.baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    @Test func aJournalOfOneGatewayIsRefusedAtAnotherAndItsAttemptsStayUntouched() async throws {
        let home = try await Sandbox()
        let other = try await Sandbox()
        let path = home.journalPath
        let first = try await home.terminal(connect: false)
        // A sale the home gateway never got, left open by an earlier run.
        let attempt = JournalRecoveryTests.entry("sale-left-open", state: .authorizing)
        try await PaymentJournal(path: path).write(attempt)

        let recorder = DroppingTransport()
        let elsewhere = try PaymentTerminal(
            environment: other.gateway.baseURL,
            credentials: .login(user: other.credentials.user, password: other.credentials.password),
            journalPath: path, transport: recorder)
        let refusal = try #require(await #expect(throws: MPOSError.self) { try await elsewhere.login() })
        #expect(refusal.code == MPOSError.Code.journalOwnedElsewhere)
        #expect(
            refusal.message
                == "The payment journal \(path) belongs to merchant \(home.credentials.merchantID) at gateway "
                + "\(home.gateway.instanceID) (last reached at \(Self.gateway(home))), not merchant "
                + "\(other.credentials.merchantID) at gateway \(other.gateway.instanceID) (last reached at "
                + "\(Self.gateway(other))); use another journal file for this gateway and merchant.")
        // Nothing runs against the other gateway afterwards either.
        await #expect(throws: refusal) { try await elsewhere.recovery.recoverUnfinished() }
        await #expect(throws: refusal) { _ = try await elsewhere.sale(EndToEndTests.sale(1_00)) }
        #expect(recorder.sent == ["POST /v1/auth/login", "POST /v1/auth/logout"])
        #expect(try PaymentJournal(path: path).all() == [attempt])
        #expect(
            try PaymentJournal(path: path).owner()
                == JournalOwner(
                    gateway: Self.gateway(home), merchantID: home.credentials.merchantID,
                    gatewayInstanceID: home.gateway.instanceID))

        // Its own gateway still finishes it.
        let again = try await home.terminal(connect: false)
        #expect(try PaymentJournal(path: path).unfinished().isEmpty)
        try await other.close()
        try await home.close(again)
        _ = first
    }

    @Test func anotherMerchantAtTheSameGatewayIsRefusedAndTheOwnerStays() throws {
        let (directory, path) = Self.temporaryJournalPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = try PaymentJournal(path: path)
        #expect(try journal.owner() == nil)
        try journal.bind(to: Self.owner("https://gateway.example", "m_1"))
        try journal.bind(to: Self.owner("https://gateway.example", "m_1"))
        let refusal = #expect(throws: MPOSError.self) {
            try journal.bind(to: Self.owner("https://gateway.example", "m_2"))
        }
        #expect(refusal?.code == MPOSError.Code.journalOwnedElsewhere)
        #expect(refusal?.message.contains("merchant m_1 at https://gateway.example, not merchant m_2") == true)
        #expect(try PaymentJournal(path: path).owner() == Self.owner("https://gateway.example", "m_1"))
    }

    @Test func aJournalWrittenBeforeOwnersAdoptsItsFirstLogin() async throws {
        let (directory, path) = Self.temporaryJournalPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let attempt = JournalRecoveryTests.entry("sale-old", state: .finished)
        try await PaymentJournal(path: path).write(attempt)
        // As the previous version left it: no owner table, no record of its migration.
        let database = try DatabaseQueue(path: path)
        try await database.write { db in
            try db.execute(sql: "DROP TABLE owner")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier IN ('v3-owner', 'v6-owner-instance')")
        }
        try database.close()

        let journal = try PaymentJournal(path: path)
        #expect(try journal.owner() == nil)
        try journal.bind(to: Self.owner("http://127.0.0.1:8080", "m_1"))
        #expect(try journal.owner() == Self.owner("http://127.0.0.1:8080", "m_1"))
        #expect(try journal.all() == [attempt])
    }

    @Test func theSameGatewayRestartedOnAnotherPortKeepsItsJournal() async throws {
        let (directory, path) = Self.temporaryJournalPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let database = directory.appendingPathComponent("gateway.sqlite").path
        let configuration = SandboxGatewayConfiguration(
            port: 0, databasePath: database, passwordHashRounds: 1_000, logLevel: .error)
        let first = try await SandboxGateway.start(configuration)
        let credentials = try #require(first.credentials)
        let login = GatewayCredentials.login(user: credentials.user, password: credentials.password)
        let before = try PaymentTerminal(environment: first.baseURL, credentials: login, journalPath: path)
        try await before.login()
        await before.disconnect()
        let instance = first.instanceID
        await first.shutdown()

        let second = try await SandboxGateway.start(configuration)
        #expect(second.instanceID == instance && second.port != first.port)
        let after = try PaymentTerminal(environment: second.baseURL, credentials: login, journalPath: path)
        try await after.login()
        #expect(
            try PaymentJournal(path: path).owner()
                == JournalOwner(
                    gateway: second.baseURL.absoluteString, merchantID: credentials.merchantID,
                    gatewayInstanceID: instance))
        await after.disconnect()
        await second.shutdown()
    }

    @Test func aNewGatewayAtTheSameAddressIsAnotherGateway() throws {
        let (directory, path) = Self.temporaryJournalPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = try PaymentJournal(path: path)
        try journal.bind(to: JournalOwner(gateway: "http://127.0.0.1:8080", merchantID: "m_1", gatewayInstanceID: "gw_a"))
        let refusal = #expect(throws: MPOSError.self) {
            try journal.bind(
                to: JournalOwner(gateway: "http://127.0.0.1:8080", merchantID: "m_1", gatewayInstanceID: "gw_b"))
        }
        #expect(refusal?.code == MPOSError.Code.journalOwnedElsewhere)
        // Behind a proxy, under another name: the same instance.
        try journal.bind(to: JournalOwner(gateway: "https://pay.example", merchantID: "m_1", gatewayInstanceID: "gw_a"))
        #expect(try journal.owner()?.gatewayURL == "https://pay.example")
    }

    @Test func aJournalBoundByURLAdoptsTheInstanceAtThatURLOnly() throws {
        let (directory, path) = Self.temporaryJournalPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = try PaymentJournal(path: path)
        try journal.bind(to: Self.owner("http://127.0.0.1:8080", "m_1"))
        let elsewhere = #expect(throws: MPOSError.self) {
            try journal.bind(
                to: JournalOwner(gateway: "http://127.0.0.1:9090", merchantID: "m_1", gatewayInstanceID: "gw_a"))
        }
        #expect(elsewhere?.code == MPOSError.Code.journalOwnedElsewhere)
        try journal.bind(to: JournalOwner(gateway: "http://127.0.0.1:8080", merchantID: "m_1", gatewayInstanceID: "gw_a"))
        #expect(try journal.owner()?.gatewayInstanceID == "gw_a")
        let summary = try JournalSummary.read(path: path)
        #expect(summary.owner?.gatewayInstanceID == "gw_a" && summary.unfinishedAttempts == 0)
    }
}
