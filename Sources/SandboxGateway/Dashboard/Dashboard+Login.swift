import Foundation
import GatewayAPI
import Hummingbird

/// A one-time login link as `POST /dashboard/login-links` answers it.
public struct DashboardLoginLink: Codable, Sendable, Hashable {
    /// The path to open on the gateway (with its single-use token), such as
    /// `/dashboard/login/link?token=dl_…`.
    public var path: String
    /// When the link stops working if it has not been used.
    public var expiresAt: Date
}

extension Dashboard {
    /// Login (with the merchant's users and passwords), logout, one-time links.
    func addLoginRoutes(to router: Router<GatewayRequestContext>) {
        router.get("/dashboard/login") { request, _ in
            if await session(request) != nil { return DashboardHTTP.redirect("/dashboard/transactions") }
            return loginForm(problem: nil, status: .ok)
        }
        router.post("/dashboard/login") { request, context in
            await answering(nil) {
                let fields = try await DashboardHTTP.form(request)
                guard let expected = DashboardHTTP.cookie(DashboardHTTP.loginCookieName, request),
                    Self.same(fields["csrf"], expected)
                else {
                    return DashboardHTTP.page(
                        DashboardLayout.message("Forbidden", "The login form is stale; reload it.", session: nil),
                        status: .forbidden)
                }
                let user = fields["user"] ?? ""
                let apiSession: Session
                do {
                    apiSession = try await environment.accounts.login(
                        user: user, password: fields["password"] ?? "", address: context.clientAddress)
                } catch let error as GatewayError {
                    var form = loginForm(problem: error.body.message, status: error.status)
                    if let seconds = error.retryAfterSeconds { form.headers[.retryAfter] = String(seconds) }
                    return form
                }
                // The dashboard keeps its own session; the API token login made is not needed.
                try await environment.accounts.logout(token: apiSession.accessToken)
                return try await startSession(merchantID: apiSession.merchant.id, userID: user)
            }
        }
        router.get("/dashboard/login/link") { request, _ in
            await answering(nil) {
                guard let token = request.uri.queryParameters.get("token"),
                    let owner = try await sessions.redeemLink(token)
                else {
                    throw GatewayError.unauthorized("This login link is unknown, expired or already used.")
                }
                return try await startSession(merchantID: owner.merchantID, userID: owner.userID)
            }
        }
        router.post("/dashboard/logout") { request, _ in
            await form(request) { _, _ in
                if let token = DashboardHTTP.sessionToken(request) { try await sessions.close(token) }
                return DashboardHTTP.redirect(
                    "/dashboard/login", setCookie: DashboardHTTP.sessionCookie("", secure: secure, maxAge: 0))
            }
        }
        router.post("/dashboard/login-links") { request, context in
            let (merchantID, userID) = try context.requireUser()
            let link = try await sessions.issueLink(merchantID: merchantID, userID: userID)
            try await environment.accounts.securityLog.record(
                .dashboardLinkCreated, merchantID: merchantID, userID: userID, address: context.clientAddress,
                detail: "A one-time dashboard login link was created.")
            return try context.respond(
                to: request,
                with: DashboardLoginLink(
                    path: "/dashboard/login/link?token=\(link.token)", expiresAt: link.expiresAt),
                status: .created)
        }
    }

    /// Opens a session and sends the browser to the transactions with its cookie.
    func startSession(merchantID: String, userID: String) async throws -> Response {
        let opened = try await sessions.open(merchantID: merchantID, userID: userID)
        return DashboardHTTP.redirect(
            "/dashboard/transactions", setCookie: DashboardHTTP.sessionCookie(opened.token, secure: secure))
    }

    /// The login form with a fresh CSRF token in it and in a short cookie.
    func loginForm(problem: String?, status: HTTPResponse.Status) -> Response {
        let token = Secrets.newToken(prefix: "lc_")
        let alert: HTML = problem.map { "<p role=\"alert\">\($0)</p>" } ?? ""
        let content: HTML = """
            \(alert)<form method="post" action="/dashboard/login">\
            <input type="hidden" name="csrf" value="\(token)">\
            <label>User <input name="user" autocomplete="username" required autofocus></label>\
            <label>Password <input name="password" type="password" autocomplete="current-password" required></label>\
            <button type="submit">Log in</button></form>
            """
        let cookie =
            "\(DashboardHTTP.loginCookieName)=\(token); Path=/dashboard/login; Max-Age=1800; HttpOnly; SameSite=Strict"
            + (secure ? "; Secure" : "")
        return DashboardHTTP.page(
            DashboardLayout.page(title: "Log in", session: nil, content: content), status: status, setCookie: cookie)
    }
}
