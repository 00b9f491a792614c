import Foundation
import GatewayAPI

/// What the app was told during the week, and the debit card's spend per day as the issuer
/// counts it (approvals on the day they were made, less their refunds).
struct Till {
    struct ToldSale: Sendable {
        var id: String
        var amount: Int64
        var card: String
        /// The day the gateway booked it (a forwarded sale: the day of its forward).
        var day: String
        var refunded: Int64 = 0
    }

    var sales: [String: ToldSale] = [:]
    var refunds: [String: (original: String, amount: Int64, day: String)] = [:]
    var storedOffline: [UUID: (amount: Int64, card: String)] = [:]
    var reversed: Set<String> = []
    var debitSpent: [String: Int64] = [:]
    var chosenRefusals = 0
    var forwarded = 0
    /// Sessions the terminals renewed by themselves.
    var renewals = 0
    var published: UpdateImage?
    var unexpected: [String] = []

    mutating func approved(_ id: String, amount: Int64, card: String, on day: String) {
        if sales[id] != nil { unexpected.append("\(id) was reported approved twice") }
        sales[id] = ToldSale(id: id, amount: amount, card: card, day: day)
        if card == "visa-debit" { debitSpent[day, default: 0] += amount }
    }

    mutating func refunded(_ id: String, of original: String, amount: Int64, on day: String) {
        if refunds[id] != nil { unexpected.append("refund \(id) was reported twice") }
        refunds[id] = (original, amount, day)
        sales[original]?.refunded += amount
        if let sale = sales[original], sale.card == "visa-debit" {
            debitSpent[sale.day, default: 0] -= amount
        }
    }

    /// The day's takings as the app heard of them: approvals booked that day less refunds made.
    func turnover(on day: String) -> Int64 {
        sales.values.filter { $0.day == day }.reduce(0) { $0 + $1.amount }
            - refunds.values.filter { $0.day == day }.reduce(0) { $0 + $1.amount }
    }
}

/// A day's money in the ledger: the sales that moved money (with tips) less the refunds.
struct LedgerSums: Sendable, CustomStringConvertible {
    var turnover: Int64 = 0
    var count = 0

    init(_ rows: [LedgerEntry]) {
        for row in rows where row.movedMoney {
            switch row.kind {
            case "sale":
                turnover += row.approved + row.tip
                count += 1
            case "refund":
                turnover -= row.approved
                count += 1
            default: break
            }
        }
    }

    var description: String { "\(count) transactions, \(turnover)" }
}
