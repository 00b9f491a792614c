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
    static func insert(_ lines: [ReceiptLine], transactionID: String, _ db: any SQLSession) throws {
        // Most payments have no basket: no statement lookup on the writer's path for them.
        guard !lines.isEmpty else { return }
        for (position, line) in lines.enumerated() {
            try db.execute(
                sql: """
                    INSERT INTO payment_basket_line
                        (transaction_id, position, description, quantity, unit_price, total, tax_basis_points)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                transactionID, position, line.description, line.quantity, line.unitPrice, line.total,
                line.taxBasisPoints,
            ])
        }
    }

    /// The lines stored for `transactionID`, in order.
    static func lines(transactionID: String, _ db: any SQLSession) throws -> [ReceiptLine] {
        try db.fetchAll(sql: """
                SELECT description, quantity, unit_price, total, tax_basis_points FROM payment_basket_line
                WHERE transaction_id = ? ORDER BY position
                """, arguments: [transactionID]
        ).map {
            ReceiptLine(
                description: $0["description"], quantity: $0["quantity"], unitPrice: $0["unit_price"],
                total: $0["total"], taxBasisPoints: $0["tax_basis_points"])
        }
    }
}
