import Foundation
import GatewayAPI
import MPOSCore

// The terminal's side of store and forward: storing what the card approved offline, the
// policy check before a sale, recovery's hand-off and the cached session (forwarding is in
// OfflinePayments+Forward.swift).
extension OfflinePayments {
    /// Stores the sale the card approved offline, synced before it returns; starts the
    /// background forward.
    func store(_ request: AuthorizeCardRequest, key: IdempotencyKey) async -> Result<UUID, MPOSError> {
        let now = Self.storedNow()
        var request = request
        request.offlineStoredAt = now
        let record = OfflineRecord(id: UUID(), key: key, storedAt: now, request: request)
        do {
            try await store.append(record)
        } catch {
            return .failure(error)
        }
        startForwarder()
        return .success(record.id)
    }

    /// Now, to the whole second: the times stored in the file (ISO 8601) read back equal.
    static func storedNow() -> Date {
        Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    }

    /// Why a sale with `parameters` may not be taken offline on a device in `device` (the
    /// device's offline checks, then the policy), or nil.
    func refusal(_ parameters: PaymentParameters, at date: Date) async -> MPOSError? {
        let pending: [StoredOfflinePayment]
        do {
            pending = try await store.contents().pending.map { $0.summary(forwarded: nil) }
        } catch {
            return error
        }
        return policy.refusal(
            amount: parameters.amount, currency: parameters.currency, pending: pending,
            lastOnline: lastOnlineSession, now: date)
    }

    /// The idempotency keys of every sale in the store (recovery hands the journal's attempts
    /// the store holds over to it).
    func storedKeys() async throws(MPOSError) -> Set<IdempotencyKey> {
        Set(try await store.contents().records.map(\.key))
    }

    // MARK: - The session cached for a start without the gateway

    /// An online login (or renewal) at `date`, on the device's clock: the offline window starts again.
    func wentOnline(at date: Date) {
        lastOnlineSession = date
        if case .offlineOnly = session { session = .gateway }
    }

    /// Runs on a cached session: its limits and its window.
    func adopt(_ authorization: OfflineAuthorization) {
        policy = authorization.policy
        lastOnlineSession = authorization.onlineAt
        session = .offlineOnly
    }

    /// Seals the session of the online login that just succeeded into the store, for a later
    /// login that cannot reach the gateway. A store that cannot be written costs only that
    /// fallback, never the online session.
    /// A client token's session is not sealed (nothing to fall back to without its backend).
    func seal(credentials: GatewayCredentials, merchant: MerchantInfo?, checkpoint: DeviceCheckpoint?) async {
        guard case .login(let user, _) = credentials, var merchant, let onlineAt = lastOnlineSession else { return }
        // The user is kept as a hash only.
        merchant.userID = nil
        let authorization = OfflineAuthorization(
            id: UUID(), gateway: client.baseURL.absoluteString, userHash: OfflineAuthorization.userHash(user),
            merchant: merchant, policy: policy,
            onlineAt: Date(timeIntervalSince1970: onlineAt.timeIntervalSince1970.rounded(.down)),
            checkpoint: checkpoint)
        // Best effort, as said above: the fallback is lost, the session is not.
        try? await store.appendAuthorization(authorization)
    }

    /// The cached session a login with `credentials` may fall back to at `now` (the device's
    /// date), or why not.
    func cachedSession(for credentials: GatewayCredentials, now: Date) async
        -> Result<OfflineAuthorization, OfflineFallbackRefusal>
    {
        guard case .login(let user, _) = credentials else {
            return .failure(OfflineFallbackRefusal(reason: "NO_TOKEN: a client token is not cached for offline use."))
        }
        let cached: OfflineAuthorization?
        do { cached = try await store.contents().authorization } catch {
            return .failure(OfflineFallbackRefusal(reason: error.message))
        }
        guard let cached else {
            return .failure(OfflineFallbackRefusal(reason: "NO_TOKEN: no online session yet; log in online first."))
        }
        if let reason = cached.refusal(gateway: client.baseURL.absoluteString, user: user, now: now) {
            return .failure(OfflineFallbackRefusal(reason: reason))
        }
        return .success(cached)
    }
}
