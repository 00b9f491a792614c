import ArgumentParser
import Foundation
import SandboxGateway

/// `--db FILE` or `--database postgres://…`: where a gateway command keeps its data, and
/// `--fingerprint-key FILE`: the key of its card fingerprints, kept apart from it.
struct GatewayDatabaseOptions: ParsableArguments {
    @Option(name: .long, help: "SQLite database file of the sandbox gateway (created if missing).")
    var db: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "PostgreSQL database instead of a SQLite file, for several instances on one database "
                + "(the password in the URL or in MPOS_DATABASE_PASSWORD); its schema is migrated on start.",
            valueName: "postgres://USER@HOST:PORT/DB"))
    var database: String?

    @OptionGroup var key: FingerprintKeyOptions

    /// Checks the pair: not both, and a URL that parses.
    func validate() throws {
        if db != nil, database != nil {
            throw ValidationError("--db and --database exclude each other: pick SQLite or PostgreSQL.")
        }
        if let database {
            do { _ = try PostgresURL(database) } catch { throw ValidationError("--database: \(error)") }
        }
    }

    /// Sets `configuration`'s database: the PostgreSQL URL, else the SQLite file (`defaultFile`
    /// when no `--db` was given); then its card-fingerprint key.
    ///
    /// - Throws: ``GatewayStartupError/fingerprintKeyUnusable`` when the key given cannot be used.
    func apply(to configuration: inout SandboxGatewayConfiguration, defaultFile: String?) throws {
        if let database {
            configuration.databaseURL = try PostgresURL(database)
        } else if let file = db ?? defaultFile {
            configuration.databasePath = file
        } else {
            throw ValidationError("Name the database with --db FILE or --database postgres://USER@HOST:PORT/DB.")
        }
        try key.apply(to: &configuration)
    }

    /// The database as it may be printed: the file, or the URL without its password.
    var shown: String {
        if let database, let url = try? PostgresURL(database) { return url.description }
        return db ?? "./mpos-sandbox.sqlite"
    }

    /// The flag to name in an error about the database.
    var flag: String { database != nil ? "--database" : "--db" }
}

extension GatewayDatabaseOptions {
    /// A configuration of the database alone, for commands that do one thing and stop.
    func configuration() throws -> SandboxGatewayConfiguration {
        var configuration = SandboxGatewayConfiguration(logLevel: .warning)
        try apply(to: &configuration, defaultFile: nil)
        return configuration
    }
}

extension GatewayDatabaseOptions {
    /// For commands with no default database: one of `--db` and `--database` must be given.
    func requireNamed() throws {
        guard db != nil || database != nil else {
            throw ValidationError("Name the database with --db FILE or --database postgres://USER@HOST:PORT/DB.")
        }
    }
}
