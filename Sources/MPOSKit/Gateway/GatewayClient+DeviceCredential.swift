import Foundation
import GatewayAPI
import MPOSCore

/// The device credential: registering the device, opening sessions with the credential and
/// keeping the secret each answer carries. A login or a renewal (``GatewayClient``) decides
/// when it is used.
extension GatewayClient {
    /// What presenting the device credential to renew a lapsed session came to.
    enum DeviceRenewal {
        /// A new session, and the next secret kept.
        case renewed
        /// The gateway refused the credential (revoked or replaced): it is forgotten.
        case revoked
        /// Another refusal, or no request could be made.
        case failed
        /// No answer came.
        case unreachable(GatewayTransportError)
    }

    /// The user a stored credential belongs to: the one logging in, nil for a client token's device.
    var credentialUser: String? {
        if case .login(let user, _) = credentials { return user }
        return nil
    }

    /// `POST /v1/auth/device-session` with `credential`.
    func deviceSessionRequest(_ credential: DeviceCredential) throws(MPOSError) -> GatewayHTTPRequest {
        GatewayHTTPRequest(
            GatewayRoutes.deviceSession, headers: ["Content-Type": "application/json"],
            body: try encode(DeviceSessionRequest(deviceID: credential.deviceID, secret: credential.secret)))
    }

    /// Sends a request that opens a session, once or, with `resending`, again after each lost
    /// connection as `retry` says.
    ///
    /// - Throws: ``MPOSError/gatewayUnreachable`` when no answer came.
    func sendLogin(_ request: GatewayHTTPRequest, resending: Bool) async throws(MPOSError)
        -> GatewayHTTPResponse
    {
        do {
            guard resending else { return try await transport.send(request, to: baseURL) }
            return try await resendingSafely { () async throws(GatewayTransportError) in
                try await transport.send(request, to: baseURL)
            }
        } catch {
            throw MPOSError.gatewayUnreachable.withMessage("Login got no answer: \(error.reason).")
        }
    }

    /// Forgets the device credential the gateway refused (revoked, or replaced elsewhere): the
    /// next password login registers the device again.
    func forgetDeviceCredential() throws(MPOSError) {
        deviceCredential = nil
        try deviceCredentials?.remove()
    }

    /// Registers this device with the client token in force (`POST /v1/devices`) and keeps the
    /// credential; a gateway without the route grants none, and nothing changes.
    func registerDevice() async throws(MPOSError) {
        var request = GatewayHTTPRequest(GatewayRoutes.registerDevice, headers: ["Content-Type": "application/json"])
        request.body = try encode(DeviceRegistration(name: deviceName))
        let response: GatewayHTTPResponse
        do { response = try await authorized(request) } catch {
            throw MPOSError.gatewayUnreachable.withMessage("No answer from the gateway: \(error.reason).")
        }
        // A credential that cannot be read is as none granted: the session works without it,
        // and the next login registers the device again.
        guard response.status == 201,
            let credential = try? GatewayJSON.decoder.decode(DeviceCredential.self, from: response.body)
        else { return }
        deviceCredential = credential
        try deviceCredentials?.save(StoredDeviceCredential(gateway: baseURL.absoluteString, user: nil, credential: credential))
    }

    /// The credential the store keeps for `user` (nil: a device registered with a client token)
    /// at this gateway, if any.
    func storedCredential(of user: String?) throws(MPOSError) -> StoredDeviceCredential? {
        guard let stored = try deviceCredentials?.load(), stored.user == user,
            stored.gateway == baseURL.absoluteString
        else { return nil }
        return stored
    }

    /// Opens a session with `credential` and keeps the secret the answer carries.
    ///
    /// - Returns: false when the gateway refused the credential (revoked or replaced).
    /// - Throws: ``MPOSError/gatewayUnreachable`` when no answer came; the store's error when
    ///   the next secret cannot be kept (the one just used no longer works at the gateway).
    func openDeviceSession(
        _ credential: DeviceCredential, user: String?, resending: Bool
    ) async throws(MPOSError) -> Bool {
        // Safe to repeat: the gateway still takes the secret whose replacement was lost.
        let response = try await sendLogin(try deviceSessionRequest(credential), resending: resending)
        guard adoptSession(from: response) else {
            guard response.status == 401 else { throw refusal(response, unauthorized: true) }
            return false
        }
        if let next = deviceCredential {
            try deviceCredentials?.save(StoredDeviceCredential(gateway: baseURL.absoluteString, user: user, credential: next))
        }
        return true
    }

    /// Logs in with a client token from `provider`, and registers the device with it the first
    /// time; when the app's backend gives no token, a registered device logs in with its own
    /// credential.
    func logIn(provider: @Sendable () async throws -> String, resending: Bool) async throws(MPOSError) {
        gatewayTime = nil
        let stored = try storedCredential(of: nil)
        let provided: String?
        do { provided = try await provider() } catch { provided = nil }
        guard let provided else {
            guard let stored, try await openDeviceSession(stored.credential, user: nil, resending: resending) else {
                throw MPOSError.gatewayUnauthorized.withMessage("The client token provider failed.")
            }
            return
        }
        token = provided
        let response = try await plain(GatewayRoutes.merchant)
        guard response.status == 200 else { throw refusal(response, unauthorized: true) }
        // An unreadable merchant fails the login: without it the environment check would pass.
        do { merchant = try decode(response, as: MerchantInfo.self) } catch {
            token = nil
            throw error
        }
        if let stored {
            deviceCredential = stored.credential
        } else {
            try await registerDevice()
        }
    }

    /// Renews a lapsed session with `credential`, once.
    func renewWithDeviceCredential(_ credential: DeviceCredential) async -> DeviceRenewal {
        // Encoding two strings does not fail; if it did, the renewal falls back like a refusal.
        guard let request = try? deviceSessionRequest(credential) else { return .failed }
        let response: GatewayHTTPResponse
        do { response = try await transport.send(request, to: baseURL) } catch { return .unreachable(error) }
        if adoptSession(from: response), let next = deviceCredential {
            // Kept in memory whatever the store says: a store that fails here leaves the file one
            // secret behind, which the gateway still takes once at the next start.
            try? deviceCredentials?.save(
                StoredDeviceCredential(gateway: baseURL.absoluteString, user: credentialUser, credential: next))
            return .renewed
        }
        guard response.status == 401 else { return .failed }
        // The in-memory credential is gone either way; a file left behind is refused again.
        try? forgetDeviceCredential()
        return .revoked
    }
}
