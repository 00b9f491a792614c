import Foundation
import GatewayAPI
import Hummingbird

extension Dashboard {
    /// `/dashboard/security`: the merchant's security log, newest first.
    func addSecurityRoutes(to router: Router<GatewayRequestContext>) {
        router.get("/dashboard/security") { request, _ in
            await page(request) { session in
                let events = try await environment.accounts.securityLog.events(merchantID: session.merchantID)
                return DashboardHTTP.page(SecurityPage.render(session: session, events: events))
            }
        }
    }
}

/// The security log page: failed and locked logins with their addresses, password resets and
/// changes, credentials granted and refused, webhook changes.
enum SecurityPage {
    static func render(session: DashboardSession, events: [SecurityEvent]) -> HTML {
        let rows = events.map { event -> HTML in
            """
            <tr><td>\(DashboardLayout.time(event.at))</td><td>\(event.kind.rawValue)</td>\
            <td>\(event.userID ?? "")</td><td>\(event.address ?? "")</td><td>\(event.detail)</td></tr>
            """
        }
        let content: HTML = """
            <p>The newest 200 events of the security log: who did what to the accounts and credentials, \
            and from which address. Nothing here is ever changed or deleted.</p>\
            <div class="scroll"><table><thead><tr><th scope="col">At (UTC)</th><th scope="col">Event</th>\
            <th scope="col">User</th><th scope="col">Address</th><th scope="col">Detail</th></tr></thead>\
            <tbody>\(rows)</tbody></table></div>
            """
        return DashboardLayout.page(title: "Security log", session: session, content: content)
    }
}
