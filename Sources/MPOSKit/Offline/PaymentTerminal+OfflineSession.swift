import Foundation
import GatewayAPI
import MPOSCore

/// Why a login may not fall back to offline-only: the seed's name and the reason.
struct OfflineFallbackRefusal: Error, Sendable {
    let reason: String
}

// A session cached across processes: each online login seals an offline authorization into
// the offline store, and a later login that cannot reach the gateway may run on it,
// offline-only, within the policy's window.
extension PaymentTerminal {

    /// Seals the offline authorization of the online login that just succeeded. A store that
    /// cannot be written costs only the fallback, never the online session.
    func sealOfflineAuthorization() async {
        guard case .login(let user, _) = await client.credentials, let merchant = await client.merchant else { return }
        await offline.seal(
            gateway: client.baseURL.absoluteString, user: user, merchant: merchant, checkpoint: security.checkpoint)
    }

    /// Notes a session the client renewed by itself after it lapsed as the online login it is:
    /// the offline window and the device checks' reference start again from it, its offline
    /// limits apply, and it is sealed for a start without the gateway. Without this a terminal
    /// that stays logged in for days, renewing its session at each request after a pause, would
    /// refuse every sale offline once a day had passed since the app's own login.
    func noteRenewedSession() async {
        if let terms = await client.offlinePolicy { await offline.setPolicy(terms) }
        await noteOnlineSession()
        await sealOfflineAuthorization()
        // Each seal takes a slot; a terminal that stays logged in renews many times between
        // logins, and compaction (which keeps the latest authorization only) bounds the file.
        await offline.compact()
    }

    /// The cached authorization a login with these credentials may fall back to now, or why not.
    func offlineFallbackCheck() async -> Result<OfflineAuthorization, OfflineFallbackRefusal> {
        guard case .login(let user, _) = await client.credentials else {
            return .failure(OfflineFallbackRefusal(reason: "NO_TOKEN: a client token is not cached for offline use."))
        }
        let cached: OfflineAuthorization?
        do { cached = try await offline.store.contents().authorization } catch {
            return .failure(OfflineFallbackRefusal(reason: error.message))
        }
        guard let cached else {
            return .failure(OfflineFallbackRefusal(reason: "NO_TOKEN: no online session yet; log in online first."))
        }
        let now = await security.deviceState().date
        if let reason = cached.refusal(gateway: client.baseURL.absoluteString, user: user, now: now) {
            return .failure(OfflineFallbackRefusal(reason: reason))
        }
        return .success(cached)
    }

    /// Comes up offline-only on `fallback`, or throws the login's `error` with the reason the
    /// cached session could not be used.
    func comeUpOfflineOnly(
        _ fallback: Result<OfflineAuthorization, OfflineFallbackRefusal>, after error: MPOSError
    ) async throws(MPOSError) {
        let authorization: OfflineAuthorization
        switch fallback {
        case .success(let cached): authorization = cached
        case .failure(let refusal): throw error.withMessage(error.message + " No offline session: " + refusal.reason)
        }
        // The journal must belong to the cached merchant, as an online login would require.
        try payments.journal.bind(
            to: JournalOwner(
                gateway: client.baseURL.absoluteString, merchantID: authorization.merchant.id,
                gatewayInstanceID: authorization.merchant.gatewayInstanceID))
        state.cameUpOfflineOnly(authorization)
        await offline.adopt(authorization)
        // The time since boot is the device's, not the process's: the clock and restart
        // checks run against the login that sealed the session.
        security.adopt(authorization.checkpoint)
        await client.adoptCachedMerchant(authorization.merchant)
    }
}
