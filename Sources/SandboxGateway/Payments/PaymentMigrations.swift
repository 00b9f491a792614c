import GRDB

extension GatewayMigrations {
    /// The payments domain's migrations (owned by the payments work; append only).
    static let payments: [GatewayMigration] = [
        GatewayMigration("payments-1-ledger", migrate: LedgerSchema.createV1)
    ]
}
