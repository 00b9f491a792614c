import GRDB

extension GatewayMigrations {
    /// The reporting domain's migrations (owned by the reporting work; append only).
    static let reporting: [GatewayMigration] = [
        GatewayMigration("reporting-1-inventory", migrate: LedgerSchema.createInventory),
        GatewayMigration("reporting-2-covering-index", migrate: LedgerSchema.indexReports),
        GatewayMigration("reporting-3-daily-totals", migrate: DailyTotals.create),
        GatewayMigration("reporting-4-daily-changes", migrate: DailyTotalChanges.sqlite),
    ]
}

extension LedgerSchema {
    /// One index that answers the reports without reading the table: a merchant's rows in
    /// the search's exact order (time, then `seq`, so no page needs a sort, however deep),
    /// and with them every column the status filter and the statistics read (currency, kind,
    /// status, amounts), so skipped rows and added-up rows never touch the table. It
    /// replaces the narrower (merchant, time) index it starts with, so a ledger write still
    /// changes the same number of b-trees.
    @Sendable static func indexReports(_ db: Database) throws {
        try db.drop(index: "payment_transaction_merchant_time")
        try db.create(
            index: "payment_transaction_merchant_time_covering", on: "payment_transaction",
            columns: [
                "merchant_id", "created_at", "seq", "currency", "kind", "status", "amount_requested",
                "amount_captured", "amount_tip",
            ])
    }
}
