import Foundation
import Synchronization

/// A cached token's facts; the cache needs its expiry to make room.
protocol CachedToken: Sendable {
    var expiresAt: Date { get }
}

/// Tokens the gateway has already resolved, by the SHA-256 hex of the token, so that a
/// payment's authentication reads no database.
///
/// Every change of a token's row goes through the cache too: a write that ends sessions
/// (logout, password reset, expiry) removes them here after its commit, and a resolution read
/// from the database is kept only if no removal happened since the read began
/// (``generation``), so a session ended while another request was resolving it cannot come
/// back. Changes another gateway instance makes (several instances on one PostgreSQL
/// database) are not announced here: with a ``maximumAge`` an entry is trusted only that long
/// after it was read, and the next use reads the database again. Holds at most ``capacity``
/// tokens: when full, the expired ones are dropped, and if none had, all.
final class TokenCache<Entry: CachedToken>: Sendable {
    /// The most tokens kept.
    let capacity: Int
    /// How long after its read from the database an entry answers, by the injected clock;
    /// `nil` for as long as it is kept (one process alone on its database).
    let maximumAge: TimeInterval?
    private struct Contents {
        var entries: [String: (entry: Entry, readAt: Date)] = [:]
        var removals: UInt64 = 0
    }
    private let contents = Mutex(Contents())

    /// An empty cache.
    init(capacity: Int = 4_096, maximumAge: TimeInterval? = nil) {
        self.capacity = max(1, capacity)
        self.maximumAge = maximumAge
    }

    /// The entry of a token hash, whatever its age.
    subscript(hash: String) -> Entry? { contents.withLock { $0.entries[hash]?.entry } }

    /// The entry of a token hash if it was read no more than ``maximumAge`` before `now`.
    func entry(for hash: String, now: Date) -> Entry? {
        let maximumAge = maximumAge
        return contents.withLock { contents in
            guard let kept = contents.entries[hash] else { return nil }
            if let maximumAge, now.timeIntervalSince(kept.readAt) > maximumAge { return nil }
            return kept.entry
        }
    }

    /// A value that changes whenever tokens are removed: read it before reading a token from
    /// the database, and hand it to ``insert(_:for:now:unlessRemovedSince:)``.
    var generation: UInt64 { contents.withLock { $0.removals } }

    /// Keeps `entry` for `hash`, making room first when full (by the injected clock's `now`),
    /// unless tokens were removed since `generation` was read (the entry may be stale).
    func insert(_ entry: Entry, for hash: String, now: Date, unlessRemovedSince generation: UInt64) {
        let capacity = capacity
        contents.withLock { contents in
            guard contents.removals == generation else { return }
            if contents.entries[hash] == nil, contents.entries.count >= capacity {
                contents.entries = contents.entries.filter { $0.value.entry.expiresAt > now }
                if contents.entries.count >= capacity { contents.entries.removeAll(keepingCapacity: true) }
            }
            contents.entries[hash] = (entry, now)
        }
    }

    /// Forgets the token with `hash`; call after the database change has committed.
    func remove(hash: String) {
        contents.withLock { contents in
            contents.removals &+= 1
            contents.entries.removeValue(forKey: hash)
        }
    }

    /// Forgets the tokens `where` picks; call after the database change has committed.
    func remove(where shouldRemove: (String, Entry) -> Bool) {
        contents.withLock { contents in
            contents.removals &+= 1
            contents.entries = contents.entries.filter { !shouldRemove($0.key, $0.value.entry) }
        }
    }

    /// How many tokens are kept.
    var count: Int { contents.withLock { $0.entries.count } }
}

/// What a client token resolves to. A client token is never changed once minted: it expires,
/// checked against the injected clock on every use, or ends with the device it was minted for.
struct ClientTokenEntry: CachedToken, Hashable {
    var merchantID: String
    var expiresAt: Date
    /// The device whose credential it was minted for, if any (revoking the device ends it).
    var deviceID: String? = nil
}

/// What an access token resolves to: its session's merchant and user, the device whose
/// credential opened it (nil for a person's login), and the expiry last written to the
/// database (it slides with use).
struct AccessTokenEntry: CachedToken, Hashable {
    var merchantID: String
    var userID: String
    var expiresAt: Date
    var deviceID: String? = nil
}
