import Foundation
import GatewayAPI
import Hummingbird

extension Dashboard {
    /// `/dashboard/devices`: the merchant's registered devices, each with a button that
    /// revokes it (its credential renews no session, its sessions end).
    func addDeviceRoutes(to router: Router<GatewayRequestContext>) {
        router.get("/dashboard/devices") { request, _ in
            await page(request) { session in
                let devices = try await environment.accounts.devices(merchantID: session.merchantID).devices
                return DashboardHTTP.page(
                    DevicesPage.render(
                        session: session, devices: devices,
                        revoked: request.uri.queryParameters.get("revoked").map { String($0) }))
            }
        }
        router.post("/dashboard/devices/revoke") { request, context in
            await form(request) { session, fields in
                guard let id = fields["device"], !id.isEmpty else { throw GatewayError.invalid("Choose a device to revoke.") }
                try await environment.accounts.revokeDevice(
                    merchantID: session.merchantID, id: id, by: session.userID, address: context.clientAddress)
                return DashboardHTTP.redirect("/dashboard/devices?revoked=\(DashboardHTTP.query(id))")
            }
        }
    }
}

/// The devices page: name, id, who registered it, when it was last used, and a revoke button.
enum DevicesPage {
    static func render(session: DashboardSession, devices: [Device], revoked: String?) -> HTML {
        let rows = devices.map { device -> HTML in
            let action: HTML =
                device.revokedAt == nil
                ? """
                <form method="post" action="/dashboard/devices/revoke" class="inline">\(DashboardLayout.csrfField(session))\
                <input type="hidden" name="device" value="\(device.id)"><button type="submit">Revoke</button></form>
                """
                : "revoked \(DashboardLayout.time(device.revokedAt ?? device.createdAt))"
            return """
                <tr><td>\(device.name)</td><td>\(device.id)</td><td>\(device.userID ?? "")</td>\
                <td>\(DashboardLayout.time(device.createdAt))</td>\
                <td>\(device.lastUsedAt.map(DashboardLayout.time) ?? "")</td><td>\(action)</td></tr>
                """
        }
        let notice: HTML = revoked.map { "<p role=\"status\">The device \($0) was revoked.</p>" } ?? ""
        let content: HTML = """
            \(notice)<p>Each terminal that logged in with the SDK holds a device credential: it renews the \
            terminal's sessions without the user's password, so a locked or reset user does not stop the \
            counter. Revoke a device that was lost or stolen.</p>\
            <div class="scroll"><table><thead><tr><th scope="col">Name</th><th scope="col">Device</th>\
            <th scope="col">Registered by</th><th scope="col">Registered (UTC)</th><th scope="col">Last used (UTC)</th>\
            <th scope="col"></th></tr></thead><tbody>\(rows)</tbody></table></div>
            """
        return DashboardLayout.page(title: "Devices", session: session, content: content)
    }
}
