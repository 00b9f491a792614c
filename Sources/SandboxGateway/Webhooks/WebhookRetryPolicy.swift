import Foundation

/// When to retry a failed webhook delivery: exponential backoff with a cap.
public struct WebhookRetryPolicy: Sendable, Hashable {
    /// Attempts in all, the first included.
    public var maximumAttempts: Int
    /// The wait after the first failure.
    public var initialDelay: Duration
    /// The longest wait between two attempts.
    public var maximumDelay: Duration

    /// Six attempts, waiting 1 s, 2 s, 4 s, 8 s and 16 s between them.
    public static let standard = WebhookRetryPolicy(
        maximumAttempts: 6, initialDelay: .seconds(1), maximumDelay: .seconds(300))

    /// Creates a policy.
    public init(maximumAttempts: Int, initialDelay: Duration, maximumDelay: Duration) {
        precondition(maximumAttempts >= 1)
        self.maximumAttempts = maximumAttempts
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
    }

    /// The wait after failed attempt number `attempt` (1-based), or `nil` when none follows:
    /// `initialDelay × 2^(attempt−1)`, at most `maximumDelay`.
    public func delay(afterAttempt attempt: Int) -> Duration? {
        guard attempt >= 1, attempt < maximumAttempts else { return nil }
        var delay = initialDelay
        for _ in 1..<attempt {
            delay *= 2
            if delay >= maximumDelay { return maximumDelay }
        }
        return min(delay, maximumDelay)
    }
}

extension Duration {
    /// The duration in seconds as a `TimeInterval`.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
