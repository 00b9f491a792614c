import GRDB

/// One named schema migration. Names are permanent: once a build with a migration has run
/// against a database, never rename, reorder or edit it; add a new one.
public struct GatewayMigration: Sendable {
    /// The unique name, prefixed by its domain (`"core-1-accounts"`, `"payments-1-…"`).
    public let name: String
    /// Applies the migration inside its transaction.
    public let migrate: @Sendable (Database) throws -> Void

    /// Declares a migration.
    public init(_ name: String, migrate: @escaping @Sendable (Database) throws -> Void) {
        self.name = name
        self.migrate = migrate
    }
}

/// The gateway's migrations, in the order they apply: the core's, then each domain's.
///
/// EXTENSION POINT: a domain declares its list in its own file as a static property of
/// this enum (`GatewayMigrations.payments` in `Payments/`, `GatewayMigrations.reporting` in
/// `Reporting/`) and appends to it; ``register(_:)`` applies all lists.
public enum GatewayMigrations {
    /// Every migration in application order.
    public static var all: [GatewayMigration] { core + payments + reporting + updates + dashboard + webhooks }

    /// Registers every migration with `migrator`.
    public static func register(_ migrator: inout DatabaseMigrator) {
        for migration in all {
            migrator.registerMigration(migration.name, migrate: migration.migrate)
        }
    }
}
