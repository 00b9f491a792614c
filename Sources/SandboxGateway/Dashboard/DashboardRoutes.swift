import Foundation
import GRDB
import Hummingbird

/// Registers the merchant's back office under `/dashboard`: login and logout, transactions,
/// statistics, and the API route that issues one-time login links (docs/dashboard.md).
///
/// Pages answer HTML, never the API's JSON errors: a missing session on a page sends the
/// browser to the login form; a form without the session's CSRF token is refused with 403.
public func addDashboardRoutes(to router: Router<GatewayRequestContext>, environment: GatewayEnvironment) {
    let dashboard = Dashboard(environment: environment)
    router.get("/dashboard") { _, _ in DashboardHTTP.redirect("/dashboard/transactions") }
    router.get("/dashboard/style.css") { _, _ in
        var headers = DashboardHTTP.securityHeaders
        headers[.contentType] = "text/css; charset=utf-8"
        headers[.cacheControl] = "max-age=3600"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: DashboardStyle.css)))
    }
    dashboard.addLoginRoutes(to: router)
    dashboard.addTransactionRoutes(to: router)
    dashboard.addDeliveryRoutes(to: router)
    dashboard.addOfflineRoutes(to: router)
    dashboard.addReaderRoutes(to: router)
    dashboard.addSecurityRoutes(to: router)
    dashboard.addDeviceRoutes(to: router)
    router.get("/dashboard/statistics") { request, _ in
        await dashboard.page(request) { session in try await dashboard.statistics(request, session) }
    }
}

/// What the dashboard's handlers share: sessions, the payment and reporting services, and the
/// wrappers that turn a missing session, a bad CSRF token or a refusal into an HTML answer.
struct Dashboard: Sendable {
    let environment: GatewayEnvironment
    let sessions: DashboardSessions
    let payments: PaymentService
    let reporting: ReportingService

    init(environment: GatewayEnvironment) {
        self.environment = environment
        let pool = environment.store.database
        sessions = DashboardSessions(
            database: pool, now: environment.configuration.now, idleTimeout: environment.configuration.sessionLifetime)
        payments = PaymentDomain(environment: environment).payments
        reporting = ReportingService(database: pool, now: environment.configuration.now)
    }

    /// Whether cookies carry `Secure` (the gateway serves TLS).
    var secure: Bool { environment.configuration.tls != nil }

    /// The session of the request's cookie.
    func session(_ request: Request) async -> DashboardSession? {
        guard let token = DashboardHTTP.sessionToken(request) else { return nil }
        // No session that can be read means the login page, never a page of someone's data.
        return try? await sessions.resolve(token)
    }

    /// A GET page: to the login form without a session; refusals as HTML pages.
    func page(_ request: Request, _ render: (DashboardSession) async throws -> Response) async -> Response {
        guard let session = await session(request) else { return DashboardHTTP.redirect("/dashboard/login") }
        return await answering(session) { try await render(session) }
    }

    /// A form POST: 403 without a session or without the session's CSRF token, then `handle`
    /// with the form's fields.
    func form(
        _ request: Request, _ handle: (DashboardSession, [String: String]) async throws -> Response
    ) async -> Response {
        guard let session = await session(request) else {
            return DashboardHTTP.page(
                DashboardLayout.message("Forbidden", "Log in again, then send the form.", session: nil),
                status: .forbidden)
        }
        return await answering(session) {
            let fields = try await DashboardHTTP.form(request)
            guard Self.same(fields["csrf"], session.csrfToken) else {
                return DashboardHTTP.page(
                    DashboardLayout.message(
                        "Forbidden", "The form's security token is missing or stale; reload the page.",
                        session: session),
                    status: .forbidden)
            }
            return try await handle(session, fields)
        }
    }

    /// Runs `work`, answering a gateway error or a broken payment rule as an HTML page with its status.
    func answering(_ session: DashboardSession?, _ work: () async throws -> Response) async -> Response {
        do {
            return try await mapped(work)
        } catch let error as GatewayError {
            return DashboardHTTP.page(
                DashboardLayout.message(
                    error.status.reasonPhrase.isEmpty ? "Refused" : error.status.reasonPhrase, error.body.message,
                    session: session),
                status: error.status)
        } catch {
            return DashboardHTTP.page(
                DashboardLayout.message("Error", "The gateway could not answer.", session: session),
                status: .internalServerError)
        }
    }

    /// Compares secrets in time that does not depend on where they differ.
    static func same(_ given: String?, _ expected: String) -> Bool {
        guard let given else { return false }
        let a = Array(given.utf8)
        let b = Array(expected.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
