import GRDB

extension GatewayMigrations {
    /// The reporting domain's migrations (owned by the reporting work; append only).
    static let reporting: [GatewayMigration] = [
        GatewayMigration("reporting-1-inventory", migrate: LedgerSchema.createInventory)
    ]
}
