import GRDB

extension GatewayMigrations {
    /// The payments domain's migrations (owned by the payments work; append only).
    static let payments: [GatewayMigration] = [
        GatewayMigration("payments-1-ledger", migrate: LedgerSchema.createV1),
        GatewayMigration("payments-2-card-spend-index", migrate: LedgerSchema.indexCardSpend),
        GatewayMigration("payments-3-card-spend", migrate: LedgerSchema.createCardSpend),
        GatewayMigration("payments-4-basket-lines", migrate: LedgerBasket.createTable),
        GatewayMigration("payments-5-fewer-indexes", migrate: LedgerSchema.trimIndexes),
        GatewayMigration("payments-6-card-spend-by-day", migrate: LedgerSchema.spendByDay),
        GatewayMigration("payments-7-cryptogram-counters", migrate: ReplayGuard.createTables),
        GatewayMigration("payments-8-signatures", migrate: PaymentService.createSignatureTable),
        GatewayMigration("payments-9-offline-forwards", migrate: OfflineForwards.createTable),
        GatewayMigration("payments-10-asynchronous-refunds", migrate: AsynchronousRefunds.createTables),
        GatewayMigration("payments-11-fingerprint-key-apart", migrate: CardFingerprintKeyMigrations.sqlite),
        GatewayMigration("payments-12-attempt-keys", migrate: LedgerAttempts.sqlite),
    ]
}
