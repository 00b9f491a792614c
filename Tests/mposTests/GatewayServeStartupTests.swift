import Foundation
import GRDB
import Testing

/// `mpos gateway serve --db FILE` on a database it cannot serve stops before it binds, with
/// one line on standard error and a non-zero exit.
@Suite(.timeLimit(.minutes(2))) struct GatewayServeStartupTests {
    @Test func aDamagedCardFingerprintSecretStopsServeWithOneLine() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mpos-secret-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("gateway.sqlite").path
        let made = try EMVDecodeBinaryTests.run(["gateway", "merchant", "add", "--db", database])
        #expect(made.status == 0)
        try DatabaseQueue(path: database).write { db in
            try db.execute(sql: "UPDATE payment_secret SET value = X'00' WHERE name = 'card_fingerprint'")
        }

        let run = try EMVDecodeBinaryTests.run(["gateway", "serve", "--port", "0", "--db", database])

        #expect(run.status != 0)
        let lines = run.err.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(lines.count == 1)
        #expect(run.err.contains("card-fingerprint secret in \(database) cannot be used"))
        #expect(!run.out.contains("listening on"))
    }
}
