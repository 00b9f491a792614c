import Foundation
import Testing

/// `--db` and `--database` on the gateway's commands: a bad choice is refused before anything
/// opens or listens, with exit 1 and one line naming the problem, and a password given in the
/// URL never appears in it.
@Suite(.timeLimit(.minutes(2))) struct GatewayDatabaseOptionsCommandTests {
    static func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try EMVDecodeBinaryTests.run(arguments)
    }

    /// Each gateway command that opens the database, ready for database options.
    static let commands: [[String]] = [
        ["gateway", "serve", "--port", "0"],
        ["gateway", "migrate"],
        ["gateway", "merchant", "add", "--name", "Cafe"],
    ]

    @Test(arguments: [commands[0], commands[2]])
    func sqliteAndPostgresTogetherAreRefused(command: [String]) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mpos-both-\(UUID()).sqlite").path
        let run = try Self.run(command + ["--db", file, "--database", "postgres://gw:secret-word@127.0.0.1:1/sandbox"])
        #expect(run.status == 1, "\(command): \(run.err)")
        #expect(run.err.contains("--db and --database exclude each other"), "\(command): \(run.err)")
        #expect(!run.err.contains("secret-word"))
        #expect(run.out.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: file), "nothing is created for a refused command line")
    }

    @Test(arguments: [
        ("mysql://gw@127.0.0.1/sandbox", "start with postgres://"),
        ("postgres://gw:pw-kept-quiet@127.0.0.1:99999/sandbox", "port"),
        ("postgres://127.0.0.1:5432/sandbox", "user"),
    ])
    func aMalformedURLIsRefusedWithItsReason(url: String, reason: String) throws {
        for command in Self.commands {
            let run = try Self.run(command + ["--database", url])
            #expect(run.status == 1, "\(command) \(url): \(run.err)")
            #expect(run.err.contains("--database:"), "\(command) \(url): \(run.err)")
            #expect(run.err.lowercased().contains(reason), "\(command) \(url): \(run.err)")
            #expect(!run.err.contains("pw-kept-quiet"))
            #expect(run.out.isEmpty)
        }
    }

    /// Migrations without serving are for PostgreSQL (a SQLite file migrates as it opens).
    @Test func migrateWithoutADatabaseSaysHowToNameOne() throws {
        let run = try Self.run(["gateway", "migrate"])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.err.contains("--database <postgres://USER@HOST:PORT/DB>"), "\(run.err)")
        let merchant = try Self.run(["gateway", "merchant", "add", "--name", "Cafe"])
        #expect(merchant.status == 1, "\(merchant.err)")
        #expect(merchant.err.contains("--db FILE or --database postgres://"), "\(merchant.err)")
    }

    @Test func anUnreachableServerIsAnErrorNotAHang() throws {
        // Port 1 on loopback: nothing listens, the connection is refused at once.
        let run = try Self.run(["gateway", "migrate", "--database", "postgres://gw:pw-kept-quiet@127.0.0.1:1/sandbox"])
        #expect(run.status == 1, "\(run.err)")
        #expect(!run.err.isEmpty)
        #expect(!run.err.contains("pw-kept-quiet"))
    }
}
