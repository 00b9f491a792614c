import Foundation
import Testing

/// The gateway commands' card-fingerprint key: kept apart from the database (default
/// `$XDG_CONFIG_HOME/mpos/fingerprint.key`, made 0600 in a 0700 folder and used again), and a
/// key that cannot be used stops the command before it opens anything, with one line on
/// standard error and exit 1.
@Suite(.timeLimit(.minutes(3))) struct GatewayServeStartupTests {
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mpos-key-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? NSNumber).intValue & 0o777
    }

    static let commands: [[String]] = [["gateway", "serve", "--port", "0"], ["gateway", "merchant", "add"]]

    /// What a bad key file holds, its mode, and what the line says.
    static let badFiles: [(content: String?, mode: Int, says: String)] = [
        ("not a key at all\n", 0o600, "not hexadecimal"),
        (String(repeating: "ab", count: 16) + "\n", 0o600, "at least 32"),
        (String(repeating: "ab", count: 32) + "\n", 0o644, "chmod 600"),
        (nil, 0o600, "No such file"),
        // A mode does not stop root (CI runs as root) from reading a file; a folder is unreadable as a key to anyone.
        ("", 0o700, "not a regular file"),
    ]

    @Test func aKeyFileThatCannotBeUsedStopsEachCommandWithOneLineAndNoDatabase() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (index, bad) in Self.badFiles.enumerated() {
            let key = folder.appendingPathComponent("keys/\(index).key").path
            if bad.content == "" {
                try FileManager.default.createDirectory(atPath: key, withIntermediateDirectories: true)
            } else if let content = bad.content {
                try FileManager.default.createDirectory(
                    at: folder.appendingPathComponent("keys"), withIntermediateDirectories: true)
                try Data(content.utf8).write(to: URL(fileURLWithPath: key))
                try FileManager.default.setAttributes([.posixPermissions: bad.mode], ofItemAtPath: key)
            }
            for command in Self.commands {
                let database = folder.appendingPathComponent("data/gateway.sqlite").path
                let run = try EMVDecodeBinaryTests.run(
                    command + ["--db", database, "--fingerprint-key", key])
                #expect(run.status == 1, "\(command) \(bad.says): \(run.err)")
                let lines = run.err.split(separator: "\n", omittingEmptySubsequences: true)
                #expect(lines.count == 1, "\(run.err)")
                #expect(run.err.contains("card-fingerprint key file \(key) cannot be used"), "\(run.err)")
                #expect(run.err.contains(bad.says), "\(run.err)")
                #expect(!run.out.contains("listening on"))
                #expect(!FileManager.default.fileExists(atPath: database), "nothing is created")
            }
        }
    }

    @Test func aBadKeyInTheEnvironmentStopsServeWithOneLine() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("gateway.sqlite").path
        let run = try EMVDecodeBinaryTests.run(
            ["gateway", "serve", "--port", "0", "--db", database],
            environment: ["MPOS_FINGERPRINT_KEY": "0123"])
        #expect(run.status == 1)
        #expect(run.err.split(separator: "\n").count == 1, "\(run.err)")
        #expect(run.err.contains("MPOS_FINGERPRINT_KEY cannot be used"), "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: database))
    }

    @Test func theDefaultKeyFileIsMadePrivateOnceAndAnotherKeyIsRefused() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("config").path
        let environment = ["XDG_CONFIG_HOME": config]
        let database = folder.appendingPathComponent("data/gateway.sqlite").path
        let keyFile = config + "/mpos/fingerprint.key"

        let first = try EMVDecodeBinaryTests.run(
            ["gateway", "merchant", "add", "--db", database, "--name", "One"], environment: environment)
        #expect(first.status == 0, "\(first.err)")
        let key = try String(contentsOfFile: keyFile, encoding: .utf8)
        #expect(key.count == 65)
        #expect(try Self.mode(keyFile) == 0o600)
        #expect(try Self.mode(config + "/mpos") == 0o700)
        #expect(try Self.mode(database) == 0o600)
        #expect(try Self.mode(folder.appendingPathComponent("data").path) == 0o700)

        let second = try EMVDecodeBinaryTests.run(
            ["gateway", "merchant", "add", "--db", database, "--name", "Two"], environment: environment)
        #expect(second.status == 0, "\(second.err)")
        #expect(try String(contentsOfFile: keyFile, encoding: .utf8) == key)

        // Another key on the same database: refused, the database's key id named.
        let other = folder.appendingPathComponent("other.key").path
        try Data((String(repeating: "cd", count: 32) + "\n").utf8).write(to: URL(fileURLWithPath: other))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: other)
        let refused = try EMVDecodeBinaryTests.run(
            ["gateway", "serve", "--port", "0", "--db", database, "--fingerprint-key", other],
            environment: environment)
        #expect(refused.status == 1)
        #expect(refused.err.split(separator: "\n").count == 1, "\(refused.err)")
        #expect(refused.err.contains("were made with card-fingerprint key"), "\(refused.err)")
        #expect(!refused.out.contains("listening on"))
    }

    @Test func aDatabaseInTheDefaultKeyFolderIsRefused() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("config").path
        let database = config + "/mpos/gateway.sqlite"
        let run = try EMVDecodeBinaryTests.run(
            ["gateway", "merchant", "add", "--db", database], environment: ["XDG_CONFIG_HOME": config])
        #expect(run.status == 1)
        #expect(run.err.contains("would sit beside the database"), "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: database))
    }
}
