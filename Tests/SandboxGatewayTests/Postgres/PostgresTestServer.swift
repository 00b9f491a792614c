import Foundation
import MPOSTestSupport
import Testing

@testable import SandboxGateway

/// One throwaway PostgreSQL per suite: `.postgresServer` starts it before the suite's tests
/// and stops it after them; each test takes a fresh database of its own on it.
struct PostgresServerTrait: SuiteTrait, TestScoping {
    /// Once per suite, not per test.
    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // Without PostgreSQL, suites that run on both engines keep their SQLite cases; their
        // PostgreSQL cases fail on `freshDatabase()` saying why.
        guard LocalPostgres.isInstalled else { return try await function() }
        let server = try LocalPostgres.start(durable: false)
        defer { server.stop() }
        try await PostgresTestServer.$current.withValue(server) { try await function() }
    }
}

extension Trait where Self == PostgresServerTrait {
    /// Runs the suite against a throwaway PostgreSQL server (``PostgresTestServer/current``).
    static var postgresServer: Self { PostgresServerTrait() }
}

/// Access to the suite's server.
enum PostgresTestServer {
    /// The server of the running suite.
    @TaskLocal static var current: LocalPostgres?

    /// Why PostgreSQL suites skip: only when the programs are not installed at all.
    static let notInstalled: Comment = "PostgreSQL (initdb, pg_ctl, createdb) is not installed; CI installs it (.ci/run)"

    /// A new, empty database on the suite's server.
    static func freshDatabase() throws -> PostgresURL {
        let server = try #require(current, "the suite needs the .postgresServer trait")
        let name = "t_\(UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: ""))"
        return try PostgresURL(server.createDatabase(name), environment: [:])
    }

    /// A gateway database opened on a new database, closed after `body`.
    static func withDatabase<T>(
        configuration: PostgresGatewayDatabase.Configuration = .init(),
        _ body: (PostgresGatewayDatabase) async throws -> T
    ) async throws -> T {
        let database = try await PostgresGatewayDatabase(url: freshDatabase(), configuration: configuration)
        do {
            let result = try await body(database)
            try await database.close()
            return result
        } catch {
            try? await database.close()
            throw error
        }
    }
}
