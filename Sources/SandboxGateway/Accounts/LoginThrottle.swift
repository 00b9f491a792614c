import Foundation
import Synchronization

/// Slows password guessing without turning it into an outage: failed logins are counted per
/// client address and per (user, address), and past a few free failures each key must wait a
/// delay that doubles with every further failure before its next try. The per-user lockout
/// PCI DSS asks for (``SandboxGatewayConfiguration/maximumFailedLogins``) is kept in the
/// database; this throttle answers first, so a guesser from one address meets growing waits
/// long before the lock, and an address that guesses at many users is slowed as a whole.
///
/// It also counts failures for user ids that do not exist, so that an unknown user "locks"
/// after as many failures as a real one and the answers do not tell them apart.
///
/// A pure value: the caller passes the time and keeps it behind a lock
/// (``LoginThrottleStore``). Counts are kept per gateway instance; with several instances the
/// database's lockout is the bound that holds across them.
struct LoginThrottle: Sendable {
    /// The numbers of the policy.
    struct Policy: Sendable, Hashable {
        /// Failures of one user from one address before waits begin.
        var freeFailuresPerUserAndAddress = 3
        /// Failures from one address (any users) before waits begin.
        var freeFailuresPerAddress = 20
        /// The first wait; each later failure doubles it.
        var firstDelay: TimeInterval = 1
        /// The longest wait for one user from one address.
        var maximumDelayPerUserAndAddress: TimeInterval = 60
        /// The longest wait for an address.
        var maximumDelayPerAddress: TimeInterval = 15 * 60
        /// How long failures are remembered after the last one.
        var window: TimeInterval = 30 * 60
        /// The most keys remembered; past it the oldest are forgotten.
        var capacity = 20_000
    }

    enum Key: Hashable {
        case address(String)
        case userAndAddress(user: String, address: String)
        case unknownUser(String)
    }

    struct Failures: Hashable {
        var count: Int
        var last: Date
    }

    let policy: Policy
    private(set) var failures: [Key: Failures] = [:]

    init(policy: Policy = Policy()) { self.policy = policy }

    /// How many seconds `user` from `address` must still wait before a try is heard, or nil.
    func delay(user: String, address: String, now: Date) -> TimeInterval? {
        let waits = [
            wait(.userAndAddress(user: user, address: address), free: policy.freeFailuresPerUserAndAddress,
                 maximum: policy.maximumDelayPerUserAndAddress, now: now),
            wait(.address(address), free: policy.freeFailuresPerAddress, maximum: policy.maximumDelayPerAddress, now: now),
        ].compactMap { $0 }
        return waits.max()
    }

    private func wait(_ key: Key, free: Int, maximum: TimeInterval, now: Date) -> TimeInterval? {
        guard let kept = failures[key], now.timeIntervalSince(kept.last) < policy.window, kept.count >= free else {
            return nil
        }
        let exponent = min(kept.count - free, 30)
        let delay = min(policy.firstDelay * pow(2, Double(exponent)), maximum)
        let remaining = kept.last.addingTimeInterval(delay).timeIntervalSince(now)
        return remaining > 0 ? remaining : nil
    }

    /// Counts a failed login of `user` from `address`; `knownUser` false also counts it for
    /// the unknown user id.
    mutating func recordFailure(user: String, address: String, knownUser: Bool, now: Date) {
        makeRoom(now: now)
        var keys: [Key] = [.address(address), .userAndAddress(user: user, address: address)]
        if !knownUser { keys.append(.unknownUser(user)) }
        for key in keys {
            var kept = failures[key].flatMap { now.timeIntervalSince($0.last) < policy.window ? $0 : nil }
                ?? Failures(count: 0, last: now)
            kept.count += 1
            kept.last = now
            failures[key] = kept
        }
    }

    /// A successful login clears its (user, address) count; the address's stays.
    mutating func recordSuccess(user: String, address: String) {
        failures.removeValue(forKey: .userAndAddress(user: user, address: address))
    }

    /// Failures of an unknown user id within the window, and when the last one was.
    func unknownUserFailures(_ user: String, now: Date) -> Failures? {
        guard let kept = failures[.unknownUser(user)], now.timeIntervalSince(kept.last) < policy.window else {
            return nil
        }
        return kept
    }

    private mutating func makeRoom(now: Date) {
        guard failures.count >= policy.capacity else { return }
        let window = policy.window
        failures = failures.filter { now.timeIntervalSince($0.value.last) < window }
        if failures.count >= policy.capacity {
            let newest = failures.sorted { $0.value.last > $1.value.last }.prefix(policy.capacity / 2)
            failures = Dictionary(uniqueKeysWithValues: newest.map { ($0.key, $0.value) })
        }
    }
}

/// The gateway's ``LoginThrottle`` behind a lock.
final class LoginThrottleStore: Sendable {
    private let state: Mutex<LoginThrottle>

    init(policy: LoginThrottle.Policy = .init()) { state = Mutex(LoginThrottle(policy: policy)) }

    func delay(user: String, address: String, now: Date) -> TimeInterval? {
        state.withLock { $0.delay(user: user, address: address, now: now) }
    }

    func recordFailure(user: String, address: String, knownUser: Bool, now: Date) {
        state.withLock { $0.recordFailure(user: user, address: address, knownUser: knownUser, now: now) }
    }

    func recordSuccess(user: String, address: String) {
        state.withLock { $0.recordSuccess(user: user, address: address) }
    }

    func unknownUserFailures(_ user: String, now: Date) -> LoginThrottle.Failures? {
        state.withLock { $0.unknownUserFailures(user, now: now) }
    }
}
