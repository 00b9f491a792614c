import Foundation
import GatewayAPI
import MPOSCore

/// How the terminal authenticates with the gateway.
public enum GatewayCredentials: Sendable {
    /// A merchant user's id and password (`POST /v1/auth/login`).
    case login(user: String, password: String)
    /// A client token minted by the app's backend with its API key; the closure is called
    /// at login and again whenever the gateway says the token expired.
    case clientToken(@Sendable () async throws -> String)
}

/// The gateway's answer to a money-moving request, once known.
enum GatewayAnswer: Sendable, Hashable {
    /// A 2xx answer carrying a transaction.
    case transaction(Transaction)
    /// A non-2xx answer with the gateway's error body. A 2xx whose transaction cannot be read
    /// is one too, as ``GatewayClient/unreadableAnswerStatus``: it says nothing of what was done.
    case refused(status: Int, GatewayErrorBody)
}

/// What a lookup of an attempt by its idempotency key found.
enum AttemptLookup: Sendable, Hashable {
    /// The gateway processed the request; this is its stored answer.
    case found(GatewayAnswer)
    /// The gateway never saw the key: the request can be sent again.
    case notFound
    /// The gateway is still processing it.
    case inProgress
    /// No answer to the lookup either.
    case unreachable
    /// The gateway refused the session, and the credentials could not renew it: the outcome
    /// stays unknown until a login with valid credentials.
    case sessionRefused
}

/// The typed HTTP client of the gateway contract, over a ``GatewayTransport``. Safe requests
/// (login, the merchant, reads, reports) are sent again after a lost connection, as `retry`
/// says, pausing on `clock`.
actor GatewayClient {
    let baseURL: URL
    let transport: any GatewayTransport
    let clock: any Clock<Duration>
    let retry: RetryPolicy
    var credentials: GatewayCredentials
    /// The named environment the gateway must be of; nil when the terminal was given a URL.
    let environment: PaymentEnvironment?
    var token: String?
    var merchant: MerchantInfo?
    /// The merchant's offline limits from the last login, if the gateway gave them.
    var offlinePolicy: OfflinePolicyTerms?
    /// The gateway's date in its login answer, for the device's clock check.
    var gatewayTime: Date?
    /// Where the device credential is kept between runs; nil keeps it in memory only.
    let deviceCredentials: (any DeviceCredentialStore)?
    /// The name the device registers with at a password login.
    let deviceName: String
    /// The device credential of the user logged in with a password, once the gateway granted
    /// one: renewals present it instead of the password.
    var deviceCredential: DeviceCredential?
    /// Whether a lapsed session is renewed with the password: only after a login at a gateway
    /// that granted no device credential. Never once one was granted, even if it is revoked.
    private var renewsWithPassword = false
    /// The renewal of a lapsed session in flight, shared by the requests that found it lapsed.
    private var renewal: Task<Result<String?, GatewayTransportError>, Never>?
    /// How many times a lapsed session was renewed.
    private(set) var renewals = 0
    /// Told of each renewal before the request that found the session lapsed goes again: a
    /// renewal is an online login like the app's (``PaymentTerminal/login()``), and the terminal
    /// notes it as one.
    private var renewed: (@Sendable () async -> Void)?

    init(
        baseURL: URL, credentials: GatewayCredentials, transport: any GatewayTransport,
        clock: any Clock<Duration> = ContinuousClock(), retry: RetryPolicy = .standard,
        environment: PaymentEnvironment? = nil, deviceCredentials: (any DeviceCredentialStore)? = nil,
        deviceName: String = ProcessInfo.processInfo.hostName
    ) {
        self.environment = environment
        self.deviceCredentials = deviceCredentials
        self.deviceName = String(deviceName.prefix(64)).isEmpty ? "MPOSKit terminal" : String(deviceName.prefix(64))
        var text = baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        self.baseURL = URL(string: text) ?? baseURL
        self.credentials = credentials
        self.transport = transport
        self.clock = clock
        self.retry = retry
    }

    var isLoggedIn: Bool { token != nil }

    /// Logs in as someone else from the next login on; the session in force, if any, ends.
    func replaceCredentials(_ credentials: GatewayCredentials) {
        self.credentials = credentials
        token = nil
        deviceCredential = nil
        renewsWithPassword = false
        merchant = nil
        offlinePolicy = nil
        gatewayTime = nil
    }

    /// Sets who is told of each renewal of a lapsed session.
    func onRenewal(_ handler: @escaping @Sendable () async -> Void) { renewed = handler }

    /// Logs in (or fetches a client token), then reads the merchant. `resending` false tries
    /// once: a caller with an offline fallback does not wait out the retry deadline.
    func login(resending: Bool = true) async throws(MPOSError) {
        switch credentials {
        case .login(let user, let password):
            let stored = try storedCredential(of: user)
            // A device already registered does not register again; a new one asks for a credential.
            // Safe to repeat: a login whose answer was lost only leaves a session unused.
            let response = try await sendLogin(
                try loginRequest(user: user, password: password, registering: stored == nil), resending: resending)
            if adoptSession(from: response) {
                if let stored {
                    deviceCredential = stored.credential
                } else if let granted = deviceCredential {
                    try deviceCredentials?.save(
                        StoredDeviceCredential(gateway: baseURL.absoluteString, user: user, credential: granted))
                }
                // A gateway that grants no device credential renews with the password, as before.
                renewsWithPassword = deviceCredential == nil
            } else {
                // The password is refused (the user is locked, or the password was reset or
                // changed): a registered device logs in with its own credential and sells on.
                guard response.status == 401, let stored,
                    try await openDeviceSession(stored.credential, user: user, resending: resending)
                else {
                    if response.status == 401, stored != nil { try forgetDeviceCredential() }
                    throw refusal(response, unauthorized: true)
                }
                renewsWithPassword = false
            }
        case .clientToken(let provider):
            try await logIn(provider: provider, resending: resending)
        }
        try refuseOtherEnvironment()
    }

    /// Ends the session just opened when the gateway says it is of the other environment than
    /// the one the terminal was made for.
    private func refuseOtherEnvironment() throws(MPOSError) {
        guard let environment, let merchant, !environment.admits(merchant) else { return }
        let theirs = merchant.environment?.rawValue ?? "unknown"
        token = nil
        self.merchant = nil
        throw MPOSError.environmentMismatch.withMessage(
            "The terminal is made for \(environment.name.rawValue), and the gateway at \(baseURL.absoluteString) is a \(theirs) gateway.")
    }

    private func loginRequest(user: String, password: String, registering: Bool) throws(MPOSError) -> GatewayHTTPRequest {
        GatewayHTTPRequest(
            GatewayRoutes.login, headers: ["Content-Type": "application/json"],
            body: try encode(
                LoginRequest(
                    user: user, password: password, device: registering ? DeviceRegistration(name: deviceName) : nil)))
    }

    /// Takes the session a login answered with; false when `response` is no session.
    func adoptSession(from response: GatewayHTTPResponse) -> Bool {
        // An answer that is no session is refused by the caller, which has the status to say why.
        guard response.status == 200,
            let session = try? GatewayJSON.decoder.decode(Session.self, from: response.body)
        else { return false }
        token = session.accessToken
        merchant = session.merchant
        offlinePolicy = session.offlinePolicy
        gatewayTime = session.gatewayTime
        if let credential = session.deviceCredential { deviceCredential = credential }
        return true
    }

    /// Sends a money-moving request to `endpoint` (with `{id}` filled by `id`, if given) with
    /// its idempotency key. Throws only when no answer came.
    func send<Body: Encodable & Sendable>(
        _ endpoint: GatewayEndpoint<Body, Transaction>, id: String? = nil, body: Body, key: IdempotencyKey
    ) async throws(GatewayTransportError) -> GatewayAnswer {
        let data: Data
        do {
            data = try GatewayJSON.encoder.encode(body)
        } catch {
            throw GatewayTransportError(reason: "the request could not be encoded")
        }
        let response = try await authorized(
            GatewayHTTPRequest(
                endpoint, parameters: GatewayHTTPRequest.parameters(id: id),
                headers: ["Content-Type": "application/json", GatewayHeaders.idempotencyKey: key.rawValue],
                body: data))
        return Self.answer(response)
    }

    /// Asks for the attempt made with `key`.
    func lookup(_ key: IdempotencyKey) async -> AttemptLookup {
        let response: GatewayHTTPResponse
        do {
            response = try await authorized(
                GatewayHTTPRequest(GatewayRoutes.attempt, parameters: ["key": key.rawValue]))
        } catch { return .unreachable }
        // Only the gateway's own "no such attempt" lets the request go again: a 404 without its
        // body (a proxy's page) or of an old gateway without the route says nothing of it.
        if response.status == 404 {
            let body = try? GatewayJSON.decoder.decode(GatewayErrorBody.self, from: response.body)  // no body of ours: not ours
            return body?.code == GatewayErrorCode.notFound ? .notFound : .unreachable
        }
        // A 409 that is not the gateway's "in progress" is the stored answer, read below.
        if response.status == 409,
            let body = try? GatewayJSON.decoder.decode(GatewayErrorBody.self, from: response.body),
            body.code == GatewayErrorCode.idempotencyInProgress
        {
            return .inProgress
        }
        // Still 401 after a renewal: the gateway answered, and refuses the credentials.
        if response.status == 401 { return .sessionRefused }
        // A server error, or a stored answer that cannot be read, is no outcome.
        let answer = Self.answer(response)
        guard GatewayDelivery.isFinal(answer) else { return .unreachable }
        return .found(answer)
    }

    /// A read-only JSON request to `endpoint` (search, statistics, terminal initialization),
    /// its answer decoded as the endpoint's response type; sent again after a lost
    /// connection, as it changes nothing at the gateway.
    func query<Body: Encodable & Sendable, Answer: Decodable & Sendable>(
        _ endpoint: GatewayEndpoint<Body, Answer>, body: Body
    ) async throws(MPOSError) -> Answer {
        let data = try encode(body)
        let response: GatewayHTTPResponse
        do {
            response = try await resendingSafely { () async throws(GatewayTransportError) in
                try await authorized(
                    GatewayHTTPRequest(endpoint, headers: ["Content-Type": "application/json"], body: data))
            }
        } catch {
            throw MPOSError.gatewayUnreachable.withMessage("No answer from the gateway: \(error.reason).")
        }
        guard (200..<300).contains(response.status) else { throw refusal(response, unauthorized: false) }
        do { return try GatewayJSON.decoder.decode(Answer.self, from: response.body) } catch {
            throw MPOSError.gatewayRefused.withMessage("The gateway's answer could not be read.")
        }
    }

    // MARK: - Internals

    func plain<Answer>(_ endpoint: GatewayEndpoint<GatewayNoBody, Answer>) async throws(MPOSError)
        -> GatewayHTTPResponse
    {
        do {
            return try await resendingSafely { () async throws(GatewayTransportError) in
                try await authorized(GatewayHTTPRequest(endpoint))
            }
        } catch {
            throw MPOSError.gatewayUnreachable.withMessage("No answer from the gateway: \(error.reason).")
        }
    }

    /// Runs `send`, a request that changes nothing when repeated, again after each failure
    /// without an answer, pausing as `retry` says, until it gets an answer or the error is the
    /// caller's (it cannot heal, the deadline came, or the task was cancelled).
    func resendingSafely<Answer>(
        _ send: () async throws(GatewayTransportError) -> Answer
    ) async throws(GatewayTransportError) -> Answer {
        let stopwatch = Stopwatch(clock)
        var failures = 0
        while true {
            do { return try await send() } catch {
                failures += 1
                guard
                    let pause = retry.pauseBeforeResendingSafeRequest(
                        after: failures, elapsed: stopwatch.elapsed, error: error)
                else { throw error }
                let lost = error
                do { try await clock.sleep(for: pause) } catch { throw lost }
            }
        }
    }

    /// Adds the bearer token. When the gateway says the session has lapsed (an expired or
    /// unknown token), the session is renewed once (``renewedToken(replacing:)``) and the
    /// request sent again with the new token: safe, since money-moving requests carry their
    /// idempotency key. A session that cannot be renewed leaves the gateway's 401 as the answer.
    func authorized(_ request: GatewayHTTPRequest) async throws(GatewayTransportError) -> GatewayHTTPResponse
    {
        var request = request
        let sentWith = token
        request.headers[GatewayHeaders.authorization] = GatewayHeaders.bearerPrefix + (sentWith ?? "")
        let response = try await transport.send(request, to: baseURL)
        guard sentWith != nil, Self.sessionLapsed(response),
            let fresh = try await renewedToken(replacing: sentWith)
        else { return response }
        request.headers[GatewayHeaders.authorization] = GatewayHeaders.bearerPrefix + fresh
        return try await transport.send(request, to: baseURL)
    }

    /// Whether `response` says the bearer token is no longer a session (4011 expired, 4010
    /// unknown: the gateway forgets an expired session's token).
    static func sessionLapsed(_ response: GatewayHTTPResponse) -> Bool {
        // A 401 without the gateway's body is not renewed: the caller gets the 401 as it came.
        guard response.status == 401,
            let body = try? GatewayJSON.decoder.decode(GatewayErrorBody.self, from: response.body)  // no body of ours: not ours
        else { return false }
        return body.code == GatewayErrorCode.tokenExpired || body.code == GatewayErrorCode.unauthorized
    }

    /// A token for a session that replaces the one that lapsed: a login with the user's
    /// password, or the app's token provider asked again. Requests that find the same token
    /// lapsed at once share one renewal; one that finds it already replaced takes the new token.
    ///
    /// - Returns: the new token, or nil when the gateway refused the login (or the provider
    ///   failed): the credentials, not the session, are wrong.
    /// - Throws: the transport's error when the login got no answer.
    func renewedToken(replacing lapsed: String?) async throws(GatewayTransportError) -> String? {
        // Ended meanwhile (reset, logout): a lapsed request does not bring the session back.
        guard let token else { return nil }
        if token != lapsed { return token }
        let renewal: Task<Result<String?, GatewayTransportError>, Never>
        if let running = self.renewal {
            renewal = running
        } else {
            renewal = Task { await self.renewSession() }
            self.renewal = renewal
        }
        let result = await renewal.value
        if self.renewal == renewal { self.renewal = nil }
        return try result.get()
    }

    private func renewSession() async -> Result<String?, GatewayTransportError> {
        if let credential = deviceCredential {
            switch await renewWithDeviceCredential(credential) {
            case .renewed:
                renewals += 1
                await renewed?()
                return .success(token)
            case .unreachable(let error): return .failure(error)
            case .failed: return .success(nil)
            // A user's session ends for good, until the app logs in again (never the password);
            // the app's backend may still hand a client token's device a new token.
            case .revoked: if case .login = credentials { return .success(nil) }
            }
        }
        switch credentials {
        case .login(let user, let password):
            // Encoding two strings does not fail; if it did, the lapsed request keeps its 401.
            guard renewsWithPassword, let request = try? loginRequest(user: user, password: password, registering: false)
            else { return .success(nil) }
            let response: GatewayHTTPResponse
            do { response = try await transport.send(request, to: baseURL) } catch { return .failure(error) }
            guard adoptSession(from: response) else { return .success(nil) }
            renewals += 1
            await renewed?()
            return .success(token)
        case .clientToken(let provider):
            // The app's provider failing is a renewal refused, as documented above: the 401 stands.
            guard let fresh = try? await provider() else { return .success(nil) }
            token = fresh
            renewals += 1
            await renewed?()
            return .success(fresh)
        }
    }
}

extension GatewayClient {
    /// The merchant of a cached session, for receipts, while no login reached the gateway.
    func adoptCachedMerchant(_ merchant: MerchantInfo) { self.merchant = merchant }
}
