import Foundation
import GRDB
import GatewayAPI

/// The basket lines of a transaction, in `payment_basket_line` (migration
/// `payments-4-basket-lines`): what receipts list and tax.
enum LedgerBasket {
    @Sendable static func createTable(_ db: Database) throws {
        try db.create(table: "payment_basket_line") { t in
            t.column("transaction_id", .text).notNull().references("payment_transaction", column: "id")
            t.column("position", .integer).notNull()
            t.column("description", .text).notNull()
            t.column("quantity", .integer).notNull()
            t.column("unit_price", .integer).notNull()
            t.column("total", .integer).notNull()
            t.column("tax_basis_points", .integer).notNull()
            t.primaryKey(["transaction_id", "position"])
        }
    }

    /// Stores `lines` for `transactionID` in the caller's transaction.
    static func insert(_ lines: [ReceiptLine], transactionID: String, _ db: Database) throws {
        // Most payments have no basket: no statement lookup on the writer's path for them.
        guard !lines.isEmpty else { return }
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO payment_basket_line
                    (transaction_id, position, description, quantity, unit_price, total, tax_basis_points)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """)
        for (position, line) in lines.enumerated() {
            try statement.execute(arguments: [
                transactionID, position, line.description, line.quantity, line.unitPrice, line.total,
                line.taxBasisPoints,
            ])
        }
    }

    /// The lines stored for `transactionID`, in order.
    static func lines(transactionID: String, _ db: Database) throws -> [ReceiptLine] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT description, quantity, unit_price, total, tax_basis_points FROM payment_basket_line
                WHERE transaction_id = ? ORDER BY position
                """, arguments: [transactionID]
        ).map {
            ReceiptLine(
                description: $0[0], quantity: $0[1], unitPrice: $0[2], total: $0[3], taxBasisPoints: $0[4])
        }
    }
}
