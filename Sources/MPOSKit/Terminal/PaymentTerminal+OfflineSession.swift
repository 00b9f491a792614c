import Foundation
import GatewayAPI
import MPOSCore

// A session cached across processes: each online login seals an offline authorization into
// the offline store, and a later login that cannot reach the gateway may run on it,
// offline-only, within the policy's window.
extension PaymentTerminal {

    /// Notes a session the client renewed by itself after it lapsed as the online login it is:
    /// the offline window and the device checks' reference start again from it, its offline
    /// limits apply, and it is sealed for a start without the gateway. Without this a terminal
    /// that stays logged in for days, renewing its session at each request after a pause, would
    /// refuse every sale offline once a day had passed since the app's own login.
    func noteRenewedSession() async {
        if let terms = await client.offlinePolicy { await offline.setPolicy(terms) }
        await noteOnlineSession()
        await offline.seal(credentials: await client.credentials, merchant: await client.merchant, checkpoint: security.checkpoint)
        // Each seal takes a slot; a terminal that stays logged in renews many times between
        // logins, and compaction (which keeps the latest authorization only) bounds the file.
        await offline.compact()
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
