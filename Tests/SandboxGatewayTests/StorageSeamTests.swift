import Foundation
import Testing

/// The storage seam does not leak: domain code (everything in `Sources/SandboxGateway` outside
/// `Database/`) never asks which engine it runs on, never downcasts to one engine's database,
/// and never spells one engine's locking SQL. What differs is a capability or a function of
/// the seam (`GatewayDatabase`, `SQLSession`, `SQLDialect`).
@Suite(.timeLimit(.minutes(1))) struct StorageSeamTests {
    /// What a line of domain code may not hold, and why.
    static let leaks: [(pattern: String, reason: String)] = [
        (#"switch\s+[\w.]*dialect\b"#, "a branch on the dialect"),
        (#"dialect\s*[!=]=|[!=]=\s*[\w.]*dialect\b"#, "a comparison of the dialect"),
        (#"[!=]=\s*\.(sqlite|postgres)\b|case\s+\.(sqlite|postgres)\b"#, "a branch on one engine"),
        (#"if\s+let\s+\w+\s*=\s*[\w.]*dialect\."#, "a branch on what one dialect lacks"),
        (#"\bas[?!]\s*\(?(any\s+)?(SQLite|Postgres)\w*"#, "a downcast to one engine's type"),
        (#"\bis\s+(SQLite|Postgres)\w*"#, "a test of one engine's type"),
        (#"\bas!\s"#, "a forced downcast"),
        (
            #"FOR UPDATE|SKIP LOCKED"#,
            "PostgreSQL's locking SQL (SQLDialect.lockingReadRows, claimingUnheldRows)"
        ),
    ]

    /// The lines of `source` that leak, each with the first reason; comment lines are passed over.
    static func leaks(in source: String) -> [(line: Int, reason: String)] {
        var found: [(line: Int, reason: String)] = []
        for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = line.trimmingCharacters(in: .whitespaces)
            if code.hasPrefix("//") { continue }
            if let leak = leaks.first(where: {
                code.range(of: $0.pattern, options: .regularExpression) != nil
            }) {
                found.append((index + 1, leak.reason))
            }
        }
        return found
    }

    /// `Sources/SandboxGateway`.
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/SandboxGateway")

    @Test func domainCodeNeverAsksWhichEngineItRunsOn() throws {
        let files = try #require(
            FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil)
        )
        .compactMap { $0 as? URL }
        .filter { $0.pathExtension == "swift" }
        .filter { !$0.path.hasPrefix(Self.sources.appendingPathComponent("Database").path + "/") }
        #expect(files.count > 100, "the domain's sources were not found at \(Self.sources.path)")
        var found: [String] = []
        for file in files {
            let relative = String(file.path.dropFirst(Self.sources.path.count + 1))
            for leak in Self.leaks(in: try String(contentsOf: file, encoding: .utf8)) {
                found.append("\(relative):\(leak.line): \(leak.reason)")
            }
        }
        #expect(found.isEmpty, "\(found.sorted().joined(separator: "\n"))")
    }

    @Test func theScanFindsEachKindOfLeakAndPassesTheSeamsFunctions() {
        let leaking = """
            switch db.dialect {
            if session.dialect == .postgres { return }
            case .sqlite: break
            if let lock = db.dialect.transactionLock(named: "x") {
            let pool = (database as? SQLiteGatewayDatabase)?.pool
            if database is PostgresGatewayDatabase {}
            let row = value as! Row
            sql: "SELECT * FROM t FOR UPDATE"
            sql: "SELECT * FROM t LIMIT 1 SKIP LOCKED"
            """
        #expect(Self.leaks(in: leaking).map(\.line) == Array(1...9))
        let clean = """
            /// On PostgreSQL this takes `FOR UPDATE`; `switch db.dialect` belongs in the seam.
            let order = "ORDER BY createdAt, \\(db.dialect.rowOrder)"
            let lock = db.dialect.claimingUnheldRows
            try db.holdTransactionLock(named: "mposkit.bootstrap")
            if database.isSharedByInstances { return }
            var configuration = SandboxGatewayConfiguration(databasePath: "/tmp/sandbox.sqlite")
            """
        #expect(Self.leaks(in: clean).isEmpty)
    }
}
