import Foundation
import GatewayAPI

extension SandboxGateway {
    /// Adds a merchant to the sandbox database `configuration` names (`databaseURL`, else the
    /// SQLite file at `databasePath`; created and migrated if missing), with one user and one API key, and returns its credentials:
    /// they are shown once, only their hashes are stored.
    ///
    /// A running gateway on the same database serves the new merchant at once; each
    /// merchant sees only its own transactions, reports, inventory, outbox and webhooks.
    ///
    /// ```swift
    /// let second = try await SandboxGateway.addMerchant(.init(databasePath: "/tmp/sandbox.sqlite"), name: "Team B")
    /// print(second.user, second.password, second.apiKey)
    /// ```
    ///
    /// - Parameter name: the merchant's display name; a default when `nil`.
    /// - Throws: database errors, or ``GatewayError`` when `name` is empty or longer than 100 characters.
    public static func addMerchant(
        _ configuration: SandboxGatewayConfiguration, name: String? = nil
    ) async throws -> SandboxCredentials {
        try await GatewayStore.using(configuration) { store in
            try await AccountService(store: store, configuration: configuration).addMerchant(name: name)
        }
    }
}

extension SandboxGateway {
    /// Sets a merchant's offline limits in the sandbox database at
    /// `configuration.databasePath`; a running gateway returns them at the next login.
    ///
    /// - Throws: database errors, or ``GatewayError`` for limits out of range.
    public static func setOfflinePolicy(
        _ configuration: SandboxGatewayConfiguration, merchantID: String, _ terms: OfflinePolicyTerms
    ) async throws {
        try await GatewayStore.using(configuration) { store in
            try await AccountService(store: store, configuration: configuration).setOfflinePolicy(merchantID: merchantID, terms)
        }
    }
}

extension SandboxGateway {
    /// Applies the schema's migrations to the PostgreSQL database `configuration.databaseURL`
    /// names, without serving, and returns the names of those it applied (none when the
    /// database was up to date). Several instances starting at once migrate safely too (the
    /// migrations run under an advisory lock); this runs them ahead of a rolling deploy.
    ///
    /// A database made by an older version still holds its card-fingerprint key: it must be
    /// ``SandboxGatewayConfiguration/fingerprintKey``, or it is moved to
    /// ``SandboxGatewayConfiguration/fingerprintKeyFile`` before the migration drops it.
    ///
    /// - Throws: ``GatewayError`` 4000 when the configuration names no PostgreSQL database
    ///   (a SQLite file is migrated whenever it is opened); ``PostgresEngineError`` when the
    ///   server cannot be reached or a migration fails (rolled back); ``GatewayStartupError``
    ///   when the card-fingerprint key is not the database's.
    public static func migrate(_ configuration: SandboxGatewayConfiguration) async throws -> [String] {
        guard let url = configuration.databaseURL else {
            throw GatewayError.invalid("Migrations without serving are for a PostgreSQL database (databaseURL).")
        }
        // The key an older database holds is moved to the key file; none is made for a new
        // database, as the instances that serve it must share theirs.
        let check = CardFingerprintKeyCheck(configuration, makesNewKey: false)
        let database = try await PostgresGatewayDatabase(
            url: url, configuration: configuration.postgres, fingerprintKey: check)
        do {
            try await check.record(in: database)
        } catch {
            // The check's own error is what the caller hears; a close that fails on top of it adds nothing.
            try? await database.close()
            throw error
        }
        // The check passed; the database was opened only for it, and a failed close loses nothing.
        try? await database.close()
        return database.appliedMigrations
    }
}

extension GatewayStore {
    /// Opens the database `configuration` names, runs `body` on it and closes a PostgreSQL
    /// database's connections afterwards, for tools that do one thing and stop.
    static func using<T>(
        _ configuration: SandboxGatewayConfiguration, _ body: (GatewayStore) async throws -> T
    ) async throws -> T {
        let store = try await GatewayStore(opening: configuration)
        do {
            let result = try await body(store)
            // The command's result is known; a failed close of its connections loses nothing.
            if store.database.closesWithTheGateway { try? await store.database.close() }
            return result
        } catch {
            // The command's own error is what the caller hears.
            if store.database.closesWithTheGateway { try? await store.database.close() }
            throw error
        }
    }
}
