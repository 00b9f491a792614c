import Foundation

/// Client tokens the gateway has already resolved, by the SHA-256 hex of the token: the
/// merchant and the fixed expiry, so that a payment's authentication reads no database.
///
/// Safe because a client token is never revoked or changed once minted: it only expires, and
/// the expiry is checked against the injected clock on every use. Holds at most
/// ``capacity`` tokens: when full, the expired ones are dropped, and if none had, all.
final class ClientTokenCache: @unchecked Sendable {
    /// What a token resolves to.
    struct Entry: Sendable, Hashable {
        var merchantID: String
        var expiresAt: Date
    }

    /// The most tokens kept.
    let capacity: Int
    private let lock = NSLock()
    private var entries: [String: Entry] = [:]

    /// An empty cache.
    init(capacity: Int = 4_096) { self.capacity = max(1, capacity) }

    /// The entry of a token hash.
    subscript(hash: String) -> Entry? { lock.withLock { entries[hash] } }

    /// Keeps `entry` for `hash`, making room first when full (by the injected clock's `now`).
    func insert(_ entry: Entry, for hash: String, now: Date) {
        lock.withLock {
            if entries[hash] == nil, entries.count >= capacity {
                entries = entries.filter { $0.value.expiresAt > now }
                if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            }
            entries[hash] = entry
        }
    }

    /// How many tokens are kept.
    var count: Int { lock.withLock { entries.count } }
}
