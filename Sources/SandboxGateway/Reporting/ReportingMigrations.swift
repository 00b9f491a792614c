import GRDB

extension GatewayMigrations {
    /// The reporting domain's migrations (owned by the reporting work; append only).
    static let reporting: [GatewayMigration] = []
}
