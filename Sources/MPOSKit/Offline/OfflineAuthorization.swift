import Crypto
import Foundation
import GatewayAPI
import EMV
import MPOSCore

/// What an online login leaves in the offline store so that a later process, started with the
/// gateway down, may take sales offline: who logged in where, the merchant a receipt needs,
/// the offline limits in force and when the gateway last answered. Never the password or a
/// token: it proves nothing to the gateway, it only lets the card decide offline.
struct OfflineAuthorization: Sendable, Hashable, Codable {
    /// The record's id (the slot's header carries it too).
    var id: UUID
    /// The gateway's base URL at that login.
    var gateway: String
    /// SHA-256 of the user id (hex): another user's credentials cannot ride on this one.
    var userHash: String
    /// The merchant, as receipts print it.
    var merchant: MerchantInfo
    /// The offline limits that were in force.
    var policy: OfflinePolicyTerms
    /// When the gateway answered the login: the policy's window runs from it.
    var onlineAt: Date
    /// What the device and the gateway said at that login: a later process checks the clock
    /// and a restart against it as the same process would (nil in authorizations sealed
    /// before the device checks).
    var checkpoint: DeviceCheckpoint?

    /// The hash a user id is bound by.
    static func userHash(_ user: String) -> String {
        Hex.encode(SHA256.hash(data: Data(("mposkit-offline-user\u{0}" + user).utf8)))
    }

    /// Why a login as `user` at `gateway` at `now` may not come up offline-only on this
    /// authorization, or nil when it may: the same gateway and user, and `now` inside the
    /// policy's window (its edge included) and not before the online session.
    func refusal(gateway: String, user: String, now: Date) -> String? {
        guard gateway == self.gateway else {
            return "NO_TOKEN: the last online session was at another gateway (\(self.gateway))."
        }
        guard Self.userHash(user) == userHash else {
            return "NO_TOKEN: the last online session was another user's; log in online first."
        }
        let offlineFor = now.timeIntervalSince(onlineAt)
        guard offlineFor >= 0 else {
            return "LOCAL_TIME_TAMPERING: the device's date is before the last online session."
        }
        guard offlineFor <= Double(policy.maximumHoursOffline) * 3600 else {
            return "TOKEN_EXPIRED_S&F: the offline window (\(policy.maximumHoursOffline) h since the last "
                + "online session) has passed."
        }
        return nil
    }
}

extension OfflineStore {
    /// Seals the authorization of an online login, synced before it returns.
    func appendAuthorization(_ authorization: OfflineAuthorization) throws(MPOSError) {
        try appendSlot(kind: .authorization, id: authorization.id, value: authorization)
    }

    /// The authorization slot's content, or nil when it does not decode or its id differs
    /// from the header's.
    static func openAuthorization(_ plaintext: Data, id: UUID) -> Opened? {
        // Nil makes it a damaged slot, reported as such: no authorization is guessed at.
        guard let authorization = try? GatewayJSON.decoder.decode(OfflineAuthorization.self, from: plaintext),
            authorization.id == id
        else { return nil }
        return .authorization(authorization)
    }
}

/// Why a login may not fall back to offline-only: the seed's name and the reason.
struct OfflineFallbackRefusal: Error, Sendable {
    let reason: String
}
