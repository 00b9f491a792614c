import Foundation
import GRDB
import GatewayAPI
import Hummingbird

extension Dashboard {
    /// The newest webhook delivery attempts of the session's merchant, at most this many.
    static let deliveryPageSize = 100

    /// `/dashboard/webhooks`: every delivery attempt, delivered, retried or failed.
    func addDeliveryRoutes(to router: Router<GatewayRequestContext>) {
        router.get("/dashboard/webhooks") { request, _ in
            await page(request) { session in
                let deliveries = try await environment.store.database.read { db in
                    try db.fetchAll(sql: """
                            SELECT transaction_id, attempt, succeeded, status_code, failure, attempted_at, next_attempt_at
                            FROM payment_webhook_delivery WHERE merchant_id = ? ORDER BY id DESC LIMIT ?
                            """,
                        arguments: [session.merchantID, Self.deliveryPageSize]
                    ).map { row in DeliveriesPage.Entry(transactionID: row["transaction_id"], delivery: DashboardDelivery(row: row)) }
                }
                return DashboardHTTP.page(DeliveriesPage.render(session: session, deliveries: deliveries))
            }
        }
    }
}

extension DashboardDelivery {
    /// A delivery from a `payment_webhook_delivery` row.
    init(row: Row) {
        self.init(
            attempt: row["attempt"], succeeded: row["succeeded"], statusCode: row["status_code"],
            failure: (row["failure"] as String?).map(WebhookDeliveryFailure.init(rawValue:)),
            attemptedAt: row["attempted_at"], retrying: (row["next_attempt_at"] as Date?) != nil)
    }
}

/// The webhook deliveries page.
enum DeliveriesPage {
    /// One attempt and the transaction it was about.
    struct Entry: Sendable {
        var transactionID: String
        var delivery: DashboardDelivery
    }

    static func render(session: DashboardSession, deliveries: [Entry]) -> HTML {
        let rows = deliveries.map { entry -> HTML in
            let d = entry.delivery
            return """
                <tr><td><a href="/dashboard/transactions/\(entry.transactionID)">\(entry.transactionID)</a></td>\
                <td>\(d.attempt)</td><td class="\(d.outcome)">\(d.outcome)</td><td>\(d.failure?.rawValue ?? "")</td>\
                <td>\(d.statusCode.map(String.init) ?? "")</td>\
                <td>\(DashboardLayout.time(d.attemptedAt))</td></tr>
                """
        }
        let content: HTML = """
            <p>The newest \(Dashboard.deliveryPageSize) attempts to deliver a webhook: delivered, retried \
            (another attempt is planned) or failed (no more attempts). A failure is named by its class: \
            http_status, redirect (never followed), timeout, unreachable, tls, or destination_refused (an address \
            webhooks may not reach; nothing was sent).</p>\
            <div class="scroll"><table><thead><tr><th scope="col">Transaction</th><th scope="col">Attempt</th>\
            <th scope="col">Outcome</th><th scope="col">Failure</th><th scope="col">HTTP status</th><th scope="col">At (UTC)</th></tr></thead>\
            <tbody>\(rows)</tbody></table></div>
            """
        return DashboardLayout.page(title: "Webhook deliveries", session: session, content: content)
    }
}
