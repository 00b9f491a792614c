import Foundation
import GatewayAPI
import MPOSCore

/// The transactions list and one transaction's page.
enum TransactionPages {
    /// The query parameters of the list: kept across its pages.
    static let queryNames = ["q", "status", "kind", "min", "max", "last4", "from", "to", "page"]

    /// The search form and one page of results.
    static func list(
        session: DashboardSession, query: [String: String], search: TransactionSearch, page: ReportingService.Page
    ) -> HTML {
        let statusOptions = TransactionSearch.StatusFilter.allCases.map { status -> HTML in
            let selected: HTML = status == search.status ? " selected" : ""
            return "<option value=\"\(status.rawValue)\"\(selected)>\(status.rawValue)</option>"
        }
        let kindOptions = [HTML("<option value=\"\">any</option>")] + TransactionKind.allCases.map { kind -> HTML in
            let selected: HTML = kind == search.filters.kind ? " selected" : ""
            return "<option value=\"\(kind.rawValue)\"\(selected)>\(kind.rawValue)</option>"
        }
        let rows = page.transactions.map { row -> HTML in
            """
            <tr><td><a href="/dashboard/transactions/\(row.id)">\(row.id)</a></td>\
            <td>\(DashboardLayout.time(row.createdAt))</td><td>\(row.kind.rawValue)</td>\
            <td>\(row.status.rawValue)</td><td class="number">\(DashboardLayout.money(row.amountRequested, row.currency))</td>\
            <td>\(row.maskedPan ?? "")</td></tr>
            """
        }
        let lastPage = max(1, (page.total + search.pageSize - 1) / search.pageSize)
        func link(_ target: Int, _ text: String) -> HTML {
            var fields = query
            fields["page"] = String(target)
            let href = fields.sorted { $0.key < $1.key }
                .map { "\(DashboardHTTP.query($0.key))=\(DashboardHTTP.query($0.value))" }.joined(separator: "&")
            return "<a href=\"/dashboard/transactions?\(href)\">\(text)</a>"
        }
        let previous: HTML = search.page > 1 ? link(search.page - 1, "Previous page") : ""
        let next: HTML = search.page < lastPage ? link(search.page + 1, "Next page") : ""
        let content: HTML = """
            <form method="get" action="/dashboard/transactions" class="filters" role="search">\
            <label>Search <input type="search" name="q" value="\(query["q"] ?? "")"></label>\
            <label>Status <select name="status">\(statusOptions)</select></label>\
            <label>Kind <select name="kind">\(kindOptions)</select></label>\
            <label>Amount from (minor units) <input name="min" inputmode="numeric" value="\(query["min"] ?? "")"></label>\
            <label>Amount to (minor units) <input name="max" inputmode="numeric" value="\(query["max"] ?? "")"></label>\
            <label>Card last four <input name="last4" inputmode="numeric" maxlength="4" value="\(query["last4"] ?? "")"></label>\
            <label>From <input type="date" name="from" value="\(query["from"] ?? "")"></label>\
            <label>To <input type="date" name="to" value="\(query["to"] ?? "")"></label>\
            <button type="submit">Search</button></form>\
            <p>\(page.total) transactions · page \(search.page) of \(lastPage)</p>\
            <div class="scroll"><table><thead><tr><th scope="col">Id</th><th scope="col">Created (UTC)</th>\
            <th scope="col">Kind</th><th scope="col">Status</th><th scope="col">Amount</th><th scope="col">Card</th>\
            </tr></thead><tbody>\(rows)</tbody></table></div><p class="pages">\(previous) \(next)</p>
            """
        return DashboardLayout.page(title: "Transactions", session: session, content: content)
    }

    /// One transaction: its receipt facts, follow-ups, webhook deliveries and the refund and
    /// void forms (each with a fresh idempotency key, so a double submit runs once).
    static func detail(
        session: DashboardSession, transaction row: LedgerTransaction, followUps: [LedgerTransaction],
        deliveries: [DashboardDelivery], notice: String?
    ) -> HTML {
        func fact(_ name: String, _ value: String?) -> HTML {
            guard let value, !value.isEmpty else { return "" }
            return "<dt>\(name)</dt><dd>\(value)</dd>"
        }
        let receipt: [HTML] = [
            fact("Kind", row.kind.rawValue), fact("Status", row.status.rawValue),
            fact("Amount", DashboardLayout.money(row.amountRequested, row.currency)),
            fact("Approved", DashboardLayout.money(row.amountApproved, row.currency)),
            fact("Refunded", DashboardLayout.money(row.amountRefunded, row.currency)),
            fact("Tip", row.amountTip == 0 ? nil : DashboardLayout.money(row.amountTip, row.currency)),
            fact("Card", [row.brand, row.maskedPan].compactMap { $0 }.joined(separator: " ")),
            fact("Entry", row.entryMode), fact("Application", row.applicationLabel), fact("AID", row.aid),
            fact("Authorisation code", row.authCode), fact("Response", row.responseCode),
            fact("Message", row.acquirerMessage), fact("Reference", row.customerReference),
            fact("Created (UTC)", DashboardLayout.time(row.createdAt)), fact("Original", row.originalId),
        ]
        let followUpRows = followUps.map { f -> HTML in
            """
            <tr><td><a href="/dashboard/transactions/\(f.id)">\(f.id)</a></td><td>\(f.kind.rawValue)</td>\
            <td>\(f.status.rawValue)</td><td class="number">\(DashboardLayout.money(f.amountRequested, f.currency))</td>\
            <td>\(DashboardLayout.time(f.createdAt))</td></tr>
            """
        }
        let deliveryRows = deliveries.map { d -> HTML in
            """
            <tr><td>\(d.attempt)</td><td>\(d.outcome)</td><td>\(d.failure?.rawValue ?? "")</td>\
            <td>\(d.statusCode.map(String.init) ?? "")</td><td>\(DashboardLayout.time(d.attemptedAt))</td></tr>
            """
        }
        let path = "/dashboard/transactions/\(row.id)"
        let forms: HTML = """
            <section aria-labelledby="actions"><h2 id="actions">Refund or void</h2>\
            <form method="post" action="\(path)/refund">\(DashboardLayout.csrfField(session))\
            <input type="hidden" name="idempotencyKey" value="\(Secrets.newIdempotencyKey())">\
            <label>Amount in minor units (empty for the rest) <input name="amount" inputmode="numeric" pattern="[0-9]*"></label>\
            <button type="submit">Refund</button></form>\
            <form method="post" action="\(path)/void">\(DashboardLayout.csrfField(session))\
            <input type="hidden" name="idempotencyKey" value="\(Secrets.newIdempotencyKey())">\
            <button type="submit">Void</button></form></section>
            """
        let noticeHTML: HTML = notice.map { "<p role=\"status\" class=\"notice\">\($0)</p>" } ?? ""
        let content: HTML = """
            \(noticeHTML)<section aria-labelledby="receipt"><h2 id="receipt">Receipt</h2><dl>\(receipt)</dl></section>\
            \(forms)<section aria-labelledby="followups"><h2 id="followups">Follow-ups</h2>\
            <div class="scroll"><table><thead><tr><th scope="col">Id</th><th scope="col">Kind</th><th scope="col">Status</th>\
            <th scope="col">Amount</th><th scope="col">Created (UTC)</th></tr></thead><tbody>\(followUpRows)</tbody></table></div></section>\
            <section aria-labelledby="webhooks"><h2 id="webhooks">Webhook deliveries</h2>\
            <div class="scroll"><table><thead><tr><th scope="col">Attempt</th><th scope="col">Outcome</th>\
            <th scope="col">Failure</th><th scope="col">HTTP status</th><th scope="col">At (UTC)</th></tr></thead><tbody>\(deliveryRows)</tbody></table></div></section>
            """
        return DashboardLayout.page(title: "Transaction \(row.id)", session: session, content: content)
    }
}

/// One webhook delivery attempt as the transaction page lists it.
struct DashboardDelivery: Sendable {
    var attempt: Int
    var succeeded: Bool
    var statusCode: Int?
    /// Why it failed: a class (`timeout`, `unreachable` …), never the socket's error text.
    var failure: WebhookDeliveryFailure?
    var attemptedAt: Date
    var retrying: Bool

    /// Delivered, retried (another attempt is planned) or failed.
    var outcome: String { succeeded ? "delivered" : retrying ? "retried" : "failed" }
}
