import Foundation
import MPOSCore

/// The frame every dashboard page shares: head, navigation, logout, and the helpers that
/// format a ledger's values for people.
enum DashboardLayout {
    /// A full page. `session` is `nil` on the login page (no navigation).
    static func page(title: String, session: DashboardSession?, content: HTML) -> HTML {
        let navigation: HTML =
            if let session {
                """
                <nav aria-label="Dashboard"><a href="/dashboard/transactions">Transactions</a>\
                <a href="/dashboard/statistics">Statistics</a>\
                <a href="/dashboard/readers">Readers</a><a href="/dashboard/offline">Offline</a>\
                <a href="/dashboard/webhooks">Webhooks</a><a href="/dashboard/devices">Devices</a>\
                <a href="/dashboard/security">Security</a>\
                <form method="post" action="/dashboard/logout" class="inline">\(csrfField(session))\
                <button type="submit">Log out</button></form></nav>
                """
            } else { "" }
        return """
            <!doctype html><html lang="en"><head><meta charset="utf-8">\
            <meta name="viewport" content="width=device-width, initial-scale=1">\
            <title>\(title) · MPOSKit sandbox</title><link rel="stylesheet" href="/dashboard/style.css"></head>\
            <body><header><strong>MPOSKit sandbox</strong>\(navigation)</header>\
            <main><h1>\(title)</h1>\(content)</main></body></html>
            """
    }

    /// The hidden field carrying the session's CSRF token.
    static func csrfField(_ session: DashboardSession) -> HTML {
        "<input type=\"hidden\" name=\"csrf\" value=\"\(session.csrfToken)\">"
    }

    /// A message page (errors, refusals).
    static func message(_ title: String, _ text: String, session: DashboardSession?) -> HTML {
        page(title: title, session: session, content: "<p role=\"alert\">\(text)</p>")
    }

    /// `1234` EUR as `12.34 EUR`.
    static func money(_ amount: Int64, _ currency: Currency) -> String {
        // A currency Money refuses is shown as the plain amount.
        (try? Money(amount: amount, currency: currency))?.description ?? "\(amount) \(currency.code)"
    }

    /// A timestamp in UTC, to the second.
    static func time(_ date: Date) -> String {
        String(ISO8601DateFormatter().string(from: date).prefix(19)).replacingOccurrences(of: "T", with: " ")
    }
}
