import Foundation
import GRDB

/// A ledger full of made-up card payments, written straight into the gateway's tables: for
/// measuring reports at a size no test run reaches (a million rows) and for checking them
/// against hand-written SQL. Masked numbers and made-up fingerprints only; no card data.
public enum SyntheticLedger {
    /// What to write.
    public struct Plan: Sendable {
        /// The merchant most rows belong to.
        public var merchant: String
        /// Merchants with a few rows each, so that the merchant filter matters.
        public var otherMerchants: [String]
        /// Rows in all.
        public var count: Int
        /// The first row's time; the others follow evenly to `start + duration`.
        public var start: Date
        /// The time the rows cover, in seconds.
        public var duration: TimeInterval
        /// The currency every row is in.
        public var currency: String

        /// A plan for `count` rows over `duration` seconds from `start`, one in fifty for another merchant.
        public init(
            merchant: String, otherMerchants: [String], count: Int, start: Date, duration: TimeInterval,
            currency: String = "EUR"
        ) {
            self.merchant = merchant
            self.otherMerchants = otherMerchants
            self.count = count
            self.start = start
            self.duration = duration
            self.currency = currency
        }
    }

    private static let names = [
        "ANNA MEIER", "JOHN SMITH", "MARIA GARCIA", "LI WEI", "OLIVIA BROWN", "LUCAS MARTIN",
        "SOFIA ROSSI", "NOAH MUELLER", "EMMA DUBOIS", "JONAS LARSEN", "AMIRA HASSAN", "YUKI TANAKA",
    ]
    private static let brands = ["VISA", "MASTERCARD", "MAESTRO", "AMEX"]

    /// Rows per insert: 20 values each, well under SQLite's and PostgreSQL's limits on values
    /// per statement.
    static let rowsPerInsert = 500

    /// Writes `plan` in one transaction, ``rowsPerInsert`` rows per insert; returns the rows
    /// written. Sales are approved (most), declined, partly approved or voided; refunds and
    /// voids name an earlier sale of the same merchant as their original.
    public static func fill(_ db: any SQLSession, _ plan: Plan, using random: inout some RandomNumberGenerator)
        throws -> Int
    {
        let insert = """
                INSERT INTO payment_transaction (
                  id, merchant_id, kind, status, original_id, amount_requested, amount_approved,
                  amount_captured, amount_tip, amount_major, currency, response_code, auth_code,
                  card_fingerprint, masked_pan, brand, cardholder_name, entry_mode, created_at, updated_at)
                VALUES
                """
        let row = "(" + Array(repeating: "?", count: 20).joined(separator: ", ") + ")"
        var pending: [(any DatabaseValueConvertible)?] = []
        var pendingRows = 0
        func flush() throws {
            guard pendingRows > 0 else { return }
            try db.execute(
                sql: insert + " " + Array(repeating: row, count: pendingRows).joined(separator: ", "),
                arguments: StatementArguments(pending))
            pending.removeAll(keepingCapacity: true)
            pendingRows = 0
        }
        var recentSales: [String: [String]] = [:]
        let step = plan.duration / Double(max(plan.count, 1))
        for index in 0..<plan.count {
            let merchant =
                plan.otherMerchants.isEmpty || index % 50 != 49
                ? plan.merchant : plan.otherMerchants[index % plan.otherMerchants.count]
            let time = plan.start.addingTimeInterval(
                Double(index) * step + Double.random(in: 0..<step, using: &random))
            let id = transactionID(index: index, time: time)
            let requested = Int64.random(in: 1...30_000, using: &random) * 5
            let roll = Int.random(in: 0..<100, using: &random)
            let original = recentSales[merchant]?.randomElement(using: &random)
            var kind = "sale"
            var status = "approved"
            var approved = requested
            var tip: Int64 = 0
            switch roll {
            case 0..<6 where original != nil: kind = "refund"
            case 6..<8 where original != nil: kind = "saleVoid"; status = "reversed"
            case 8..<14: status = "declined"; approved = 0
            case 14..<16: status = "partiallyApproved"; approved = requested / 2
            case 16..<18: status = "reversed"
            case 18..<22: kind = "authorization"
            case 22..<25: kind = "cash"
            default: if roll >= 85 { tip = requested / 10 }
            }
            let card = Int.random(in: 0..<20_000, using: &random)
            let lastFour = String(1000 + card % 9000)
            let stamp = SQLiteTimestamp.string(from: time)
            pending += [
                id, merchant, kind, status,
                kind == "sale" || kind == "authorization" || kind == "cash" ? nil : original,
                requested, approved, status == "declined" || kind == "authorization" ? 0 : approved, tip,
                requested / 100, plan.currency, status == "declined" ? "05" : "00",
                status == "declined" ? nil : String(100_000 + card % 900_000),
                kind == "cash" ? nil : "fp_" + String(card), kind == "cash" ? nil : "476173******" + lastFour,
                kind == "cash" ? nil : brands[card % brands.count],
                kind == "cash" ? nil : names[card % names.count], kind == "cash" ? nil : "chip",
                stamp, stamp,
            ]
            pendingRows += 1
            if pendingRows == rowsPerInsert { try flush() }
            if kind == "sale" && status == "approved" {
                var sales = recentSales[merchant, default: []]
                if sales.count == 64 { sales.removeFirst() }
                sales.append(id)
                recentSales[merchant] = sales
            }
        }
        try flush()
        return plan.count
    }

    /// `txn_`, 12 hex digits of the time in milliseconds and 12 of the row's index: ordered and unique.
    private static func transactionID(index: Int, time: Date) -> String {
        let millis = String(UInt64(time.timeIntervalSince1970 * 1000), radix: 16)
        let serial = String(index, radix: 16)
        return "txn_" + String(repeating: "0", count: max(0, 12 - millis.count)) + millis
            + String(repeating: "0", count: max(0, 12 - serial.count)) + serial
    }
}
