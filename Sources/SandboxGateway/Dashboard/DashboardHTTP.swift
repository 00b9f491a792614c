import Foundation
import GatewayAPI
import Hummingbird
import NIOCore

/// The dashboard's HTTP details: its cookie, its pages' headers and its form bodies.
enum DashboardHTTP {
    /// The session cookie's name.
    static let cookieName = "mpos_dashboard"

    /// The `Set-Cookie` value for a session token: HttpOnly (no script reads it), SameSite=Strict
    /// (no other site's page sends it), scoped to the dashboard, and Secure when served over TLS.
    static func sessionCookie(_ token: String, secure: Bool, maxAge: Int = Int(DashboardSessions.lifetime)) -> String {
        "\(cookieName)=\(token); Path=/dashboard; Max-Age=\(maxAge); HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }

    /// The name of the short cookie that carries the login form's CSRF token (there is no
    /// session yet, so the form's token is checked against this cookie).
    static let loginCookieName = "mpos_dashboard_login"

    /// The session token from the request's `Cookie` header.
    static func sessionToken(_ request: Request) -> String? { cookie(cookieName, request) }

    /// The value of cookie `name` in the request's `Cookie` header.
    static func cookie(_ name: String, _ request: Request) -> String? {
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                    return String(parts[1]).trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return nil
    }

    /// An HTML page with the headers every dashboard page carries: nothing loaded from
    /// elsewhere, no framing, no caching of merchant data.
    static func page(_ html: HTML, status: HTTPResponse.Status = .ok, setCookie: String? = nil) -> Response {
        var headers = securityHeaders
        headers[.contentType] = "text/html; charset=utf-8"
        if let setCookie { headers[.setCookie] = setCookie }
        let body = ByteBuffer(string: html.markup)
        headers[.contentLength] = String(body.readableBytes)
        return Response(status: status, headers: headers, body: .init(byteBuffer: body))
    }

    /// A 303 to `location` (after a form, so that reloading does not post again).
    static func redirect(_ location: String, setCookie: String? = nil) -> Response {
        var headers = securityHeaders
        headers[.location] = location
        if let setCookie { headers[.setCookie] = setCookie }
        headers[.contentLength] = "0"
        return Response(status: .seeOther, headers: headers)
    }

    static var securityHeaders: HTTPFields {
        var headers = HTTPFields()
        headers[.contentSecurityPolicy] = "default-src 'self'; form-action 'self'; frame-ancestors 'none'"
        headers[.cacheControl] = "no-store"
        headers[HTTPFieldName("X-Content-Type-Options")!] = "nosniff"
        headers[HTTPFieldName("Referrer-Policy")!] = "same-origin"
        return headers
    }

    /// The fields of an `application/x-www-form-urlencoded` body (at most 16 KiB).
    static func form(_ request: Request) async throws -> [String: String] {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: 16 * 1024)
        } catch {
            throw GatewayError(code: GatewayErrorCode.bodyTooLarge, "The form exceeds 16384 bytes.")
        }
        return decodeForm(String(buffer: buffer))
    }

    /// Decodes `a=1&b=x+y` (plus as space, percent escapes); the first of repeated names wins.
    static func decodeForm(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ part: Substring) -> String {
                String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            let name = decode(parts[0])
            if fields[name] == nil { fields[name] = parts.count > 1 ? decode(parts[1]) : "" }
        }
        return fields
    }

    /// `value` percent-encoded for a query string.
    static func query(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
