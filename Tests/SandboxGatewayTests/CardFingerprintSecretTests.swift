import Foundation
import GRDB
import Testing

@testable import SandboxGateway

/// The card-fingerprint secret is made once with a new database and read at every start; one
/// that cannot be read stops the gateway instead of being replaced by a fresh one.
@Suite(.timeLimit(.minutes(2))) struct CardFingerprintSecretTests {
    /// A database made by a first start, the gateway stopped.
    static func startedOnce() async throws -> (directory: URL, configuration: SandboxGatewayConfiguration) {
        let harness = try await GatewayHarness.start()
        await harness.stop(removingFiles: false)
        return (harness.directory, harness.gateway.environment.configuration)
    }

    /// A connection of the test's own that waits out a lock, as any tool opening the file
    /// should: the stopped gateway's last connection checkpoints the log as it closes.
    static func open(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    static func storedSecret(_ path: String) throws -> DatabaseValue? {
        try open(path).read { db in
            try DatabaseValue.fetchOne(
                db, sql: "SELECT value FROM payment_secret WHERE name = 'card_fingerprint'")
        }
    }

    static func changeSecret(_ path: String, _ sql: String) throws {
        try open(path).write { db in try db.execute(sql: sql) }
    }

    @Test func aNewDatabaseGetsOneSecretThatRestartsKeep() async throws {
        let (directory, configuration) = try await Self.startedOnce()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try #require(try Self.storedSecret(configuration.databasePath))
        guard case .blob(let bytes) = first.storage else {
            Issue.record("the secret is not a blob")
            return
        }
        #expect(bytes.count == 32)

        let again = try await SandboxGateway.start(configuration)
        let fingerprint = again.environment.cardFingerprinter.fingerprintBytes(Array("4111".utf8))
        await again.shutdown()
        #expect(try Self.storedSecret(configuration.databasePath) == first)
        #expect(fingerprint == CardFingerprinter(secret: bytes).fingerprintBytes(Array("4111".utf8)))
    }

    @Test(arguments: [
        "UPDATE payment_secret SET value = X'0102030405' WHERE name = 'card_fingerprint'",
        "UPDATE payment_secret SET value = 'not a secret' WHERE name = 'card_fingerprint'",
        "DELETE FROM payment_secret WHERE name = 'card_fingerprint'",
    ])
    func anUnreadableSecretStopsTheStart(corruption: String) async throws {
        let (directory, configuration) = try await Self.startedOnce()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.changeSecret(configuration.databasePath, corruption)
        let damaged = try Self.storedSecret(configuration.databasePath)

        do {
            let gateway = try await SandboxGateway.start(configuration)
            await gateway.shutdown()
            Issue.record("the gateway started with an unreadable secret")
        } catch let error as GatewayStartupError {
            #expect(error == .cardFingerprintSecretUnreadable)
            #expect(error.description.contains(configuration.databasePath))
            #expect(!error.description.contains("\n"))
        }
        // Nothing replaced the damaged secret.
        #expect(try Self.storedSecret(configuration.databasePath) == damaged)
    }
}
