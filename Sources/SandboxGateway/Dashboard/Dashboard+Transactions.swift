import Foundation
import GRDB
import GatewayAPI
import Hummingbird
import MPOSCore
import Synchronization

extension Dashboard {
    /// The transaction list, one transaction, and its refund and void forms.
    func addTransactionRoutes(to router: Router<GatewayRequestContext>) {
        router.get("/dashboard/transactions") { request, _ in
            await page(request) { session in
                var query: [String: String] = [:]
                for name in TransactionPages.queryNames {
                    if let value = request.uri.queryParameters.get(name), !value.isEmpty { query[name] = value }
                }
                var search = try mappedNow {
                    try TransactionSearch(
                        page: query["page"].map { Int($0) ?? 0 } ?? 1, status: query["status"], text: query["q"])
                }
                search.filters = try mappedNow {
                    try TransactionFilters(
                        kind: query["kind"], minimumAmount: try Self.minorUnits(query["min"], "min"),
                        maximumAmount: try Self.minorUnits(query["max"], "max"), cardLastFour: query["last4"])
                }
                let from = try Self.day(query["from"], "from")
                let to = try Self.day(query["to"], "to").map { $0.addingTimeInterval(24 * 3600) }
                let found = try await reporting.search(merchant: session.merchantID, search, from: from, to: to)
                return DashboardHTTP.page(TransactionPages.list(session: session, query: query, search: search, page: found))
            }
        }
        router.get("/dashboard/transactions/:id") { request, context in
            await page(request) { session in
                let id = try transactionID(context)
                let notice = request.uri.queryParameters.get("done").flatMap { Self.notices[$0] }
                return DashboardHTTP.page(try await detail(session: session, id: id, notice: notice))
            }
        }
        router.post("/dashboard/transactions/:id/refund") { request, context in
            await form(request) { session, fields in
                let id = try transactionID(context)
                let amount: Int64?
                if let text = fields["amount"], !text.isEmpty {
                    guard let value = Int64(text), value > 0 else {
                        throw GatewayError.invalid("The amount must be a whole number of minor units above 0.")
                    }
                    amount = value
                } else {
                    amount = nil
                }
                let merchant = session.merchantID
                let asynchronous = try await payments.asynchronousRefunds(merchant: merchant)
                return try await followUp(session: session, id: id, action: "refund", fields: fields, detail: "\(amount ?? 0)") {
                    db, time in
                    let refund = try PaymentService.recordRefund(
                        db, merchant: merchant, id: id, amount: amount, asynchronous: asynchronous, at: time)
                    return (refund.rows, refund.webhook)
                }
            }
        }
        router.post("/dashboard/transactions/:id/void") { request, context in
            await form(request) { session, fields in
                let id = try transactionID(context)
                let merchant = session.merchantID
                return try await followUp(session: session, id: id, action: "void", fields: fields, detail: "") {
                    db, time in
                    try PaymentService.recordFollowUp(
                        db, merchant: merchant, id: id, at: time, change: PaymentService.voidChange(reversal: false)
                    ).notified
                }
            }
        }
    }

    /// A whole number of minor units from a query value, or `nil` when absent.
    static func minorUnits(_ text: String?, _ name: String) throws(GatewayError) -> Int64? {
        guard let text else { return nil }
        guard let value = Int64(text) else { throw .invalid("\(name) must be a whole number of minor units.") }
        return value
    }

    /// The first instant (UTC) of a `yyyy-MM-dd` query value, or `nil` when absent.
    static func day(_ text: String?, _ name: String) throws(GatewayError) -> Date? {
        guard let text else { return nil }
        guard let day = TransactionSearch.utcDay(text) else {
            throw .invalid("\(name) must be a date written yyyy-MM-dd.")
        }
        return day.start
    }

    /// The messages a page shows after a form succeeded, by the `done` query value.
    static let notices = ["refund": "Refunded.", "void": "Voided."]

    /// Runs a refund or void with the form's idempotency key, as the API's routes do: the
    /// follow-up and the key's stored answer commit in one transaction (a gateway killed
    /// between them leaves neither), a second submit of the same form replays the first answer
    /// and moves no money; webhooks go out after the commit; then back to the transaction's page.
    func followUp(
        session: DashboardSession, id: String, action: String, fields: [String: String], detail: String,
        _ record: @escaping @Sendable (any SQLSession, Date) throws -> (
            rows: [LedgerTransaction], webhook: LedgerWebhookConfig?
        )
    ) async throws -> Response {
        guard let key = fields["idempotencyKey"].flatMap(IdempotencyKey.init(rawValue:)) else {
            throw GatewayError.invalidHeader("The form has no valid idempotency key; reload the page.")
        }
        let refusal = Mutex<String?>(nil)
        let time = payments.now()
        let (response, recorded) = try await environment.idempotency.idempotentWrite(
            key: key, merchant: session.merchantID, body: Data("\(action) \(id) \(detail)".utf8),
            scope: "dashboard \(action)"
        ) { db in
            do {
                let recorded = try mappedNow { try record(db, time) }
                return (.ok, try GatewayResponse.jsonData(recorded.rows[0].apiTransaction), recorded)
            } catch let error as GatewayError {
                refusal.withLock { $0 = error.body.message }
                throw error
            }
        }
        if let recorded { await payments.webhooks?.notify(recorded.rows, config: recorded.webhook) }
        guard response.status == .ok else {
            throw GatewayError(
                code: response.status.code == 404 ? GatewayErrorCode.notFound : GatewayErrorCode.invalidState,
                refusal.withLock { $0 } ?? "This form was sent before and the gateway refused it.")
        }
        return DashboardHTTP.redirect("/dashboard/transactions/\(id)?done=\(action)")
    }

    /// One transaction of the session's merchant (404 for any other id), its follow-ups and
    /// its webhook deliveries.
    func detail(session: DashboardSession, id: String, notice: String?) async throws -> HTML {
        let merchant = session.merchantID
        let row = try await mapped { try await payments.transaction(merchant: merchant, id: id) }
        let (followUps, deliveries) = try await environment.store.database.read { db in
            let followUps = try db.fetchAll(
                LedgerTransaction.self,
                sql: "SELECT * FROM payment_transaction WHERE merchant_id = ? AND original_id = ? ORDER BY seq",
                arguments: [merchant, id])
            let deliveries = try db.fetchAll(sql: """
                    SELECT attempt, succeeded, status_code, failure, attempted_at, next_attempt_at FROM payment_webhook_delivery
                    WHERE merchant_id = ? AND transaction_id = ? ORDER BY id
                    """,
                arguments: [merchant, id]
            ).map(DashboardDelivery.init(row:))
            return (followUps, deliveries)
        }
        return TransactionPages.detail(
            session: session, transaction: row, followUps: followUps, deliveries: deliveries, notice: notice)
    }
}
