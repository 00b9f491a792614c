import NIOCore

/// When the request a connection is reading must have arrived by: the rule behind the
/// request-head and request-body timeouts, with no I/O and no clock (the events carry the
/// time). ``RequestTimeoutHandler`` feeds it and runs its actions.
///
/// A request's head must be complete within the head timeout of its first byte (of the
/// connection's opening for the first request); its body within the body timeout of the
/// head. Between requests nothing is due: the idle timeout, Hummingbird's own, closes a
/// connection that waits too long for its next request.
struct RequestReadDeadlines {
    /// What the connection is reading.
    enum Phase: Equatable {
        /// A request's head, due by the deadline.
        case head(due: NIODeadline)
        /// A request's body, due by the deadline.
        case body(due: NIODeadline)
        /// Nothing: the last request arrived in full.
        case betweenRequests
    }

    /// What the handler does next.
    enum Action: Equatable {
        /// Close the connection at the deadline unless another action comes first.
        case closeAt(NIODeadline)
        /// Drop the deadline set before.
        case cancel
        /// Keep what is set.
        case none
    }

    let headTimeout: TimeAmount
    let bodyTimeout: TimeAmount
    private(set) var phase: Phase = .betweenRequests

    init(headTimeout: TimeAmount, bodyTimeout: TimeAmount) {
        self.headTimeout = headTimeout
        self.bodyTimeout = bodyTimeout
    }

    /// The connection opened: its first request's head is due.
    mutating func opened(at now: NIODeadline) -> Action {
        phase = .head(due: now + headTimeout)
        return .closeAt(now + headTimeout)
    }

    /// Bytes arrived. Between requests they start the next one's head; otherwise they are
    /// part of what is being read.
    mutating func bytesArrived(at now: NIODeadline) -> Action {
        guard phase == .betweenRequests else { return .none }
        return opened(at: now)
    }

    /// A request's head arrived in full: its body is due.
    mutating func headArrived(at now: NIODeadline) -> Action {
        phase = .body(due: now + bodyTimeout)
        return .closeAt(now + bodyTimeout)
    }

    /// A request arrived in full.
    mutating func requestEnded() -> Action {
        phase = .betweenRequests
        return .cancel
    }

    /// Whether a deadline that passed at `now` closes the connection: only if what is being
    /// read is still due by then.
    func isOverdue(at now: NIODeadline) -> Bool {
        switch phase {
        case .head(let due), .body(let due): now >= due
        case .betweenRequests: false
        }
    }
}
