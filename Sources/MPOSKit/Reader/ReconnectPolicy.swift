import MPOSCore
import ReaderLink

/// How a terminal tries to reach its reader again after the link dropped between
/// transactions: the delay doubles from `initialDelay` up to `maximumDelay`, for at most
/// `maximumAttempts` attempts.
public struct ReconnectPolicy: Sendable, Hashable {
    /// The wait before the first attempt.
    public var initialDelay: Duration
    /// The longest wait between attempts.
    public var maximumDelay: Duration
    /// How many attempts before the terminal gives up (and reports the reader disconnected).
    public var maximumAttempts: Int

    /// 0.5 s, doubling up to 30 s, 8 attempts (about two minutes in all).
    public static let standard = ReconnectPolicy(initialDelay: .milliseconds(500), maximumDelay: .seconds(30), maximumAttempts: 8)

    /// Creates a policy.
    public init(initialDelay: Duration, maximumDelay: Duration, maximumAttempts: Int) {
        self.initialDelay = max(.zero, initialDelay)
        self.maximumDelay = max(self.initialDelay, maximumDelay)
        self.maximumAttempts = max(1, maximumAttempts)
    }

    /// The wait before attempt `attempt` (0-based).
    public func delay(beforeAttempt attempt: Int) -> Duration {
        var delay = initialDelay
        for _ in 0..<min(attempt, 62) {
            delay = delay * 2
            if delay >= maximumDelay { return maximumDelay }
        }
        return delay
    }
}

/// Opens a new byte link to the reader (a TCP connection, a BLE channel) for each attempt.
public typealias ReaderTransportFactory = @Sendable () async throws -> any ReaderTransport

/// An identity for a value type.
final class UniqueToken: Sendable, Equatable {
    static func == (lhs: UniqueToken, rhs: UniqueToken) -> Bool { lhs === rhs }
}
