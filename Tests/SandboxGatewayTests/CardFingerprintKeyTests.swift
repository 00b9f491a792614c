import Crypto
import EMV
import Foundation
import GRDB
import GatewayAPI
import SandboxCards
import Testing

@testable import SandboxGateway

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The card-fingerprint key lives apart from the database: nothing in the database rebuilds a
/// card number (the probe of issue 43, finding 3), an older database's key moves to a key file
/// and its fingerprints keep matching, a start with another key is refused, and the files are
/// the owner's only.
@Suite(.timeLimit(.minutes(6)), .postgresServer) struct CardFingerprintKeyTests {
    // MARK: - Helpers

    /// Every value of every table of `database`, each row's values as they are stored.
    static func everything(_ database: any GatewayDatabase) async throws -> [String: [[String:
        DatabaseValue]]]
    {
        try await database.read { db in
            let tables: [String]
            switch db.dialect {
            case .sqlite:
                tables = try db.fetchValues(
                    String.self, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
            case .postgres:
                tables = try db.fetchValues(
                    String.self,
                    sql:
                        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
                )
            }
            var rows: [String: [[String: DatabaseValue]]] = [:]
            for table in tables {
                rows[table] = try db.fetchAll(sql: "SELECT * FROM \"\(table)\"", arguments: []).map { row in
                    Dictionary(row.map { ($0.0, $0.1) }, uniquingKeysWith: { first, _ in first })
                }
            }
            return rows
        }
    }

    /// Every blob of 16 bytes or more in `rows`, and every text's bytes (and hex-decoded
    /// bytes) of 16 or more: whatever might be a key.
    static func candidateKeys(_ rows: [String: [[String: DatabaseValue]]]) -> Set<[UInt8]> {
        var keys: Set<[UInt8]> = []
        for row in rows.values.joined() {
            for (_, value) in row {
                switch value.storage {
                case .blob(let data) where data.count >= 16:
                    keys.insert(Array(data))
                case .string(let text) where text.utf8.count >= 16:
                    keys.insert(Array(text.utf8))
                    if let bytes = try? Hex.decode(text), bytes.count >= 16 { keys.insert(bytes) }
                default:
                    break
                }
            }
        }
        return keys
    }

    /// The Luhn-valid numbers with `masked`'s first six and last four digits (`411111******1111`).
    static func candidates(_ masked: String) -> [[UInt8]] {
        let digits = Array(masked.utf8)
        let first = Array(digits.prefix(6))
        let last = Array(digits.suffix(4))
        let middle = digits.count - 10
        var limit = 1
        for _ in 0..<middle { limit *= 10 }
        var found: [[UInt8]] = []
        for n in 0..<limit {
            var text = Array(String(n).utf8)
            text = Array(repeating: UInt8(ascii: "0"), count: middle - text.count) + text
            let pan = first + text + last
            if luhnValid(pan) { found.append(pan) }
        }
        return found
    }

    static func luhnValid(_ digits: [UInt8]) -> Bool {
        var sum = 0
        for (index, digit) in digits.reversed().enumerated() {
            var value = Int(digit - UInt8(ascii: "0"))
            if index % 2 == 1 {
                value *= 2
                if value > 9 { value -= 9 }
            }
            sum += value
        }
        return sum % 10 == 0
    }

    /// The PAN among `candidates` whose HMAC under `key` is `fingerprint`, if any.
    static func attack(fingerprint: String, candidates: [[UInt8]], key: [UInt8]) -> [UInt8]? {
        let symmetric = SymmetricKey(data: key)
        guard let target = try? Hex.decode(fingerprint) else { return nil }
        for pan in candidates {
            let mac = HMAC<SHA256>.authenticationCode(for: pan, using: symmetric)
            if mac.elementsEqual(target) { return pan }
        }
        return nil
    }

    /// Sells `amount` on `card` through the gateway's HTTP API and returns the stored fingerprint.
    static func sell(_ harness: GatewayHarness, _ card: SandboxCard, amount: Int64) async throws -> String {
        let token = try await harness.login()
        let sale = try await PaymentHTTPTests.post(
            harness, GatewayPaths.authorizeCard, try PaymentHTTPTests.authorize(card, amount: amount),
            token: token)
        #expect(sale.status == 200)
        let id = try sale.decode(Transaction.self).id.rawValue
        return try #require(
            try await harness.gateway.environment.store.database.read { db in
                try db.fetchValue(
                    String.self, sql: "SELECT card_fingerprint FROM payment_transaction WHERE id = ?",
                    arguments: [id])
            })
    }

    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? NSNumber).intValue & 0o777
    }

    /// Puts the database back as the versions before `payments-11` / `payments-3` left it:
    /// the key `secret` in `payment_secret`, no key id, the migration not applied.
    static func rewindToKeyInDatabase(_ configuration: SandboxGatewayConfiguration, secret: [UInt8])
        async throws
    {
        let statements: [(String, StatementArguments)] = [
            ("DROP TABLE payment_fingerprint_key", []),
            (
                "CREATE TABLE payment_secret (name TEXT NOT NULL PRIMARY KEY, value \(configuration.databaseURL == nil ? "BLOB" : "BYTEA") NOT NULL)",
                []
            ),
            ("INSERT INTO payment_secret (name, value) VALUES ('card_fingerprint', ?)", [Data(secret)]),
        ]
        if let url = configuration.databaseURL {
            let database = try await PostgresGatewayDatabase(url: url)
            try await database.write { db in
                for (sql, arguments) in statements { try db.execute(sql: sql, arguments: arguments) }
                try db.execute(
                    sql: "DELETE FROM schema_migrations WHERE name = 'payments-3-fingerprint-key-apart'",
                    arguments: [])
            }
            try await database.close()
        } else {
            try rewindSQLite(configuration.databasePath, statements)
        }
    }

    static func rewindSQLite(_ path: String, _ statements: [(String, StatementArguments)]) throws {
        var grdb = Configuration()
        grdb.busyMode = .timeout(10)
        try DatabaseQueue(path: path, configuration: grdb).write { db in
            for (sql, arguments) in statements { try db.execute(sql: sql, arguments: arguments) }
            try db.execute(
                sql: "DELETE FROM grdb_migrations WHERE identifier = 'payments-11-fingerprint-key-apart'")
        }
    }

    // MARK: - The probe

    @Test(arguments: GatewayTestEngine.allCases)
    func noCardNumberIsRebuiltFromEverythingInTheDatabase(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let visa = SimulatedTerminal.card("visa-credit")
            let fingerprint = try await Self.sell(harness, visa, amount: 12_34)
            let masked = try #require(
                try await harness.gateway.environment.store.database.read { db in
                    try db.fetchValue(
                        String.self,
                        sql: "SELECT masked_pan FROM payment_transaction WHERE card_fingerprint = ?",
                        arguments: [fingerprint])
                })
            let candidates = Self.candidates(masked)
            #expect(candidates.count > 90_000)
            // The attack works: with the key, the PAN comes back.
            let key = try #require(harness.gateway.environment.configuration.fingerprintKey)
            #expect(
                Self.attack(fingerprint: fingerprint, candidates: candidates, key: key.bytes)
                    == Array(visa.pan.unmaskedDigits.utf8))

            // With everything the database holds, it does not.
            let rows = try await Self.everything(harness.gateway.environment.store.database)
            #expect(rows["payment_secret"] == nil)
            let keys = Self.candidateKeys(rows)
            #expect(!keys.contains(key.bytes))
            for blob in keys {
                #expect(Self.attack(fingerprint: fingerprint, candidates: candidates, key: blob) == nil)
            }
        }
    }

    // MARK: - Upgrading a database that held its key

    @Test(arguments: GatewayTestEngine.allCases)
    func anOlderDatabasesKeyMovesToTheKeyFileAndItsFingerprintsKeepMatching(engine: GatewayTestEngine)
        async throws
    {
        let harness = try await GatewayHarness.start(databaseURL: try engine.freshDatabaseURL())
        defer { try? FileManager.default.removeItem(at: harness.directory) }
        let visa = SimulatedTerminal.card("visa-credit")
        let before = try await Self.sell(harness, visa, amount: 10_00)
        let configuration = harness.gateway.environment.configuration
        let oldKey = try #require(configuration.fingerprintKey)
        await harness.stop(removingFiles: false)
        try await Self.rewindToKeyInDatabase(configuration, secret: oldKey.bytes)

        // Another key given: refused, nothing changed.
        var wrong = configuration
        wrong.fingerprintKey = .random()
        await #expect(throws: GatewayStartupError.fingerprintKeyMismatch) {
            try await SandboxGateway.start(wrong)
        }

        // No key given, a key file to make: the database's key moves there.
        var upgraded = configuration
        upgraded.fingerprintKey = nil
        let keyFolder = harness.directory.appendingPathComponent("config/mpos")
        upgraded.fingerprintKeyFile = keyFolder.appendingPathComponent("fingerprint.key").path
        let gateway = try await SandboxGateway.start(upgraded)
        let again = GatewayHarness(
            gateway: gateway, clock: harness.clock, directory: harness.directory,
            credentials: harness.credentials)
        let after = try await Self.sell(again, visa, amount: 11_00)
        let rows = try await Self.everything(gateway.environment.store.database)
        await gateway.shutdown()

        #expect(after == before)
        #expect(try CardFingerprintKeyFile.read(path: upgraded.fingerprintKeyFile!) == oldKey)
        #expect(try Self.mode(upgraded.fingerprintKeyFile!) == 0o600)
        #expect(try Self.mode(keyFolder.path) == 0o700)
        #expect(rows["payment_secret"] == nil)
        #expect(rows["payment_fingerprint_key"]?.first?["key_id"] == oldKey.id.databaseValue)
        #expect(!Self.candidateKeys(rows).contains(oldKey.bytes))
        if engine == .sqlite {
            // Not in a free page nor in the log either.
            for file in [configuration.databasePath, configuration.databasePath + "-wal"] {
                let bytes = (try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data()
                #expect(bytes.range(of: Data(oldKey.bytes)) == nil, "\(file)")
            }
        }
    }

    // MARK: - The key id

    @Test(arguments: GatewayTestEngine.allCases)
    func anotherKeyIsRefusedUnlessItNamesTheRecordedOneAsPrevious(engine: GatewayTestEngine) async throws {
        let harness = try await GatewayHarness.start(databaseURL: try engine.freshDatabaseURL())
        defer { try? FileManager.default.removeItem(at: harness.directory) }
        let configuration = harness.gateway.environment.configuration
        let oldKey = try #require(configuration.fingerprintKey)
        await harness.stop(removingFiles: false)

        var other = configuration
        other.fingerprintKey = .random()
        do {
            _ = try await SandboxGateway.start(other)
            Issue.record("a gateway started with another key than its database's")
        } catch let error as GatewayStartupError {
            #expect(error == .fingerprintKeyMismatch)
            #expect(error.description.contains(oldKey.id))
            #expect(!error.description.contains("\n"))
            #expect(!error.description.contains(Hex.encode(oldKey.bytes).lowercased()))
        }

        // A rotation: the new key, the old one as previous; from then on the new key alone.
        other.previousFingerprintKeys = [oldKey]
        let rotated = try await SandboxGateway.start(other)
        await rotated.shutdown()
        other.previousFingerprintKeys = []
        let again = try await SandboxGateway.start(other)
        await again.shutdown()
        await #expect(throws: GatewayStartupError.fingerprintKeyMismatch) {
            try await SandboxGateway.start(configuration)
        }
    }

    // MARK: - Key files

    @Test func aKeyFileIsMade0600InA0700FolderOnceAndReadAfter() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fingerprint-key-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let previous = umask(0o022)
        defer { umask(previous) }
        let path = root.appendingPathComponent("a/b/fingerprint.key").path
        let made = try CardFingerprintKeyFile.create(path: path, key: .random())
        let kept = try CardFingerprintKeyFile.create(path: path, key: .random())

        #expect(made.created && !kept.created)
        #expect(kept.key == made.key)
        #expect(try CardFingerprintKeyFile.read(path: path) == made.key)
        #expect(try Self.mode(path) == 0o600)
        #expect(try Self.mode(root.appendingPathComponent("a/b").path) == 0o700)
        #expect(try Self.mode(root.appendingPathComponent("a").path) == 0o700)
        #expect(try String(contentsOfFile: path, encoding: .utf8).count == 65)
        // No temporary file left beside it.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("a/b").path) == [
                "fingerprint.key"
            ])
    }

    @Test(arguments: [
        ("hello, not a key\n", 0o600, "not hexadecimal"),
        (String(repeating: "ab", count: 16) + "\n", 0o600, "16 bytes"),
        (String(repeating: "ab", count: 32) + "\n", 0o644, "chmod 600"),
        (String(repeating: "ab", count: 32) + "\n", 0o640, "group or others"),
    ])
    func aFileThatIsNotAPrivateKeyIsRefusedWithOneLine(content: String, mode: Int, reason: String) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fingerprint-key-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let path = root.appendingPathComponent("fingerprint.key").path
        try Data(content.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        do {
            _ = try CardFingerprintKeyFile.read(path: path)
            Issue.record("\(content) was read as a key")
        } catch {
            #expect(error == .fingerprintKeyUnusable)
            #expect(error.description.contains(reason), "\(error)")
            #expect(error.description.contains(path))
            #expect(!error.description.contains("\n"))
        }
        #expect(throws: GatewayStartupError.fingerprintKeyUnusable) {
            try CardFingerprintKeyFile.read(path: root.appendingPathComponent("missing.key").path)
        }
    }

    @Test func keyTextIsHexOf32BytesOrMoreAndItsIdIsNotTheKey() throws {
        let key = try CardFingerprintKey(hex: String(repeating: "0f", count: 32) + "\n")
        #expect(key.id.count == 8)
        #expect(key.description == "card-fingerprint key \(key.id)")
        #expect(try CardFingerprintKey(hex: String(repeating: "0F", count: 32)) == key)
        #expect(throws: CardFingerprintKeyError.self) {
            try CardFingerprintKey(hex: String(repeating: "0f", count: 31))
        }
        #expect(throws: CardFingerprintKeyError.self) { try CardFingerprintKey(hex: "zz") }
        #expect(CardFingerprintKey.random() != CardFingerprintKey.random())
    }

    // MARK: - File modes

    @Test func theDatabaseItsLogAndTheKeyAre0600InA0700FolderWhateverTheUmask() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fingerprint-key-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let previous = umask(0o022)
        defer { umask(previous) }
        var configuration = SandboxGatewayConfiguration(
            port: 0, databasePath: root.appendingPathComponent("data/gateway.sqlite").path,
            passwordHashRounds: 1_000,
            logLevel: .critical)
        configuration.fingerprintKeyFile = root.appendingPathComponent("keys/fingerprint.key").path
        let gateway = try await SandboxGateway.start(configuration)
        let harness = GatewayHarness(
            gateway: gateway, clock: ManualDateSource(), directory: root,
            credentials: try #require(gateway.credentials))
        let visa = SimulatedTerminal.card("visa-credit")
        let first = try await Self.sell(harness, visa, amount: 5_00)
        let database = configuration.databasePath
        for file in [database, database + "-wal", database + "-shm", configuration.fingerprintKeyFile!] {
            #expect(try Self.mode(file) == 0o600, "\(file)")
        }
        #expect(try Self.mode(root.appendingPathComponent("data").path) == 0o700)
        #expect(try Self.mode(root.appendingPathComponent("keys").path) == 0o700)
        await gateway.shutdown()

        // Started again from the same settings: the key file is read, the card matches.
        let restarted = try await SandboxGateway.start(configuration)
        let again = GatewayHarness(
            gateway: restarted, clock: harness.clock, directory: root, credentials: harness.credentials)
        let second = try await Self.sell(again, visa, amount: 6_00)
        await restarted.shutdown()
        #expect(second == first)
    }
}
