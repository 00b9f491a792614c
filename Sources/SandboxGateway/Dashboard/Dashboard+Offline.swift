import Foundation
import GRDB
import Hummingbird
import MPOSCore

extension Dashboard {
    /// The newest forwarded offline sales of the session's merchant, at most this many.
    static let offlinePageSize = 100

    /// `/dashboard/offline`: the sales terminals approved offline and forwarded later, with
    /// how late each arrived and what the gateway decided.
    func addOfflineRoutes(to router: Router<GatewayRequestContext>) {
        router.get("/dashboard/offline") { request, _ in
            await page(request) { session in
                let forwards = try await environment.store.database.read { db in
                    try db.fetchAll(sql: """
                            SELECT f.transaction_id, f.stored_at, f.arrived_at, t.amount_requested, t.currency, t.status
                            FROM payment_offline_forward f JOIN payment_transaction t ON t.id = f.transaction_id
                            WHERE f.merchant_id = ? AND t.merchant_id = ?
                            ORDER BY f.arrived_at DESC LIMIT ?
                            """,
                        arguments: [session.merchantID, session.merchantID, Self.offlinePageSize]
                    ).map { row in
                        OfflinePage.Entry(
                            transactionID: row["transaction_id"], storedAt: row["stored_at"],
                            arrivedAt: row["arrived_at"], amount: row["amount_requested"],
                            currency: Currency(code: row["currency"] as String) ?? .eur, status: row["status"])
                    }
                }
                return DashboardHTTP.page(OfflinePage.render(session: session, forwards: forwards))
            }
        }
    }
}

/// The forwarded offline sales page.
enum OfflinePage {
    /// One forwarded sale.
    struct Entry: Sendable {
        var transactionID: String
        var storedAt: Date
        var arrivedAt: Date
        var amount: Int64
        var currency: Currency
        var status: String
    }

    /// How long after the card approved it a sale reached the gateway: `45 s`, `12 min`, `3 h 05 min`, `2 d 4 h`.
    static func delay(_ seconds: TimeInterval) -> String {
        let total = max(0, Int(seconds.rounded()))
        switch total {
        case ..<60: return "\(total) s"
        case ..<3_600: return "\(total / 60) min"
        case ..<86_400: return "\(total / 3_600) h \(String(format: "%02d", total % 3_600 / 60)) min"
        default: return "\(total / 86_400) d \(total % 86_400 / 3_600) h"
        }
    }

    static func render(session: DashboardSession, forwards: [Entry]) -> HTML {
        let rows = forwards.map { entry -> HTML in
            """
            <tr><td><a href="/dashboard/transactions/\(entry.transactionID)">\(entry.transactionID)</a></td>\
            <td>\(DashboardLayout.money(entry.amount, entry.currency))</td><td>\(entry.status)</td>\
            <td>\(DashboardLayout.time(entry.storedAt))</td><td>\(DashboardLayout.time(entry.arrivedAt))</td>\
            <td>\(delay(entry.arrivedAt.timeIntervalSince(entry.storedAt)))</td></tr>
            """
        }
        let content: HTML = """
            <p>Sales a terminal approved offline, while the gateway could not be reached, and forwarded \
            once it could: the newest \(Dashboard.offlinePageSize), with how late each arrived and what \
            the gateway decided.</p>\
            <div class="scroll"><table><thead><tr><th scope="col">Transaction</th><th scope="col">Amount</th>\
            <th scope="col">Status</th><th scope="col">Approved offline (UTC)</th>\
            <th scope="col">Arrived (UTC)</th><th scope="col">Late by</th></tr></thead>\
            <tbody>\(rows)</tbody></table></div>
            """
        return DashboardLayout.page(title: "Offline forwards", session: session, content: content)
    }
}
