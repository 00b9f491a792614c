import Foundation
import GatewayAPI
import MPOSCore

/// Plain requests (accounts, receipts, inventory): no idempotency key, an answer decoded or
/// a refusal turned into an `MPOSError`.
extension GatewayClient {
    /// Sends `body` (JSON, if any) to `endpoint`, with `{id}` filled by `id` if given, and
    /// returns the response whatever its status. A `GET` changes nothing, so it is sent again
    /// after a lost connection; other methods are not. The bearer token goes along unless the
    /// endpoint takes no credentials (forgot user id, reset password).
    ///
    /// - Throws: ``MPOSError/gatewayUnreachable`` when no answer came.
    func call<Body: Encodable & Sendable, Answer>(
        _ endpoint: GatewayEndpoint<Body, Answer>, id: String? = nil, body: Body? = nil
    ) async throws(MPOSError) -> GatewayHTTPResponse {
        let authenticated = endpoint.authentication != .none
        var request = GatewayHTTPRequest(endpoint, parameters: GatewayHTTPRequest.parameters(id: id))
        if let body {
            request.body = try encode(body)
            request.headers["Content-Type"] = "application/json"
        }
        let prepared = request
        let send = { () async throws(GatewayTransportError) -> GatewayHTTPResponse in
            if authenticated { return try await self.authorized(prepared) }
            return try await self.transport.send(prepared, to: self.baseURL)
        }
        do {
            if endpoint.method == .get { return try await resendingSafely(send) }
            return try await send()
        } catch {
            throw MPOSError.gatewayUnreachable.withMessage("No answer from the gateway: \(error.reason).")
        }
    }

    /// `response` decoded as `Answer` when it is a 2xx; otherwise the error `refused` maps its
    /// error body to (or the general refusal when it returns nil).
    nonisolated func decode<Answer: Decodable>(
        _ response: GatewayHTTPResponse, as: Answer.Type,
        refused: (Int, GatewayErrorBody?) -> MPOSError? = { _, _ in nil }
    ) throws(MPOSError) -> Answer {
        try check(response, refused: refused)
        do { return try GatewayJSON.decoder.decode(Answer.self, from: response.body) } catch {
            throw MPOSError.gatewayRefused.withMessage("The gateway's answer could not be read.")
        }
    }

    /// Throws unless `response` is a 2xx.
    nonisolated func check(
        _ response: GatewayHTTPResponse, refused: (Int, GatewayErrorBody?) -> MPOSError? = { _, _ in nil }
    ) throws(MPOSError) {
        guard !(200..<300).contains(response.status) else { return }
        // Without a readable body the status alone decides: never "not found", always a refusal.
        let body = try? GatewayJSON.decoder.decode(GatewayErrorBody.self, from: response.body)
        if let mapped = refused(response.status, body) { throw mapped }
        if response.status == 404, body?.code == GatewayErrorCode.notFound {
            throw MPOSError.notFound.withMessage(body?.message ?? "The gateway has no such record.")
        }
        if response.status == 401 {
            throw MPOSError.gatewayUnauthorized.withMessage(
                "The gateway refused the session (\(body?.code ?? response.status)).")
        }
        throw MPOSError.gatewayRefused.withMessage(
            "The gateway answered \(response.status): \(body?.description ?? "no error body").")
    }

    /// Reads the merchant and keeps it for receipts.
    func refreshMerchant() async throws(MPOSError) -> MerchantInfo {
        let info = try decode(try await call(GatewayRoutes.merchant), as: MerchantInfo.self)
        merchant = info
        return info
    }

    /// Ends the session at the gateway (best effort: a session the gateway cannot be told
    /// about lapses on its own) and forgets the token and the merchant.
    func endSession() async {
        let ending = token
        token = nil
        merchant = nil
        // Sent as is: a session that already lapsed is not renewed only to be ended.
        if let ending, case .login = credentials {
            var request = GatewayHTTPRequest(GatewayRoutes.logout)
            request.headers[GatewayHeaders.authorization] = GatewayHeaders.bearerPrefix + ending
            // Best effort: a session the gateway is not told of lapses on its own.
            _ = try? await transport.send(request, to: baseURL)
        }
    }

    /// Remembers a changed password so a later login uses it.
    func passwordChanged(to password: String) {
        if case .login(let user, _) = credentials { credentials = .login(user: user, password: password) }
    }
}
