/// The background forward's rules, with no I/O: events in, actions out, as ``PaymentEngine``
/// is for a payment. ``OfflinePayments`` feeds it what happened (a sale stored, a login that
/// found sales waiting, a pass ended, a pause over) and carries out what it returns (run a
/// pass, pause on its clock).
///
/// A pass forwards what the store holds when it starts. The gateway may stay away for hours,
/// so a pass that could not reach it (or found the terminal busy) is followed by a pause that
/// doubles from 2 s up to a minute, then another pass; a pass that forwarded everything (or
/// met a refusal no retry would change) ends the background forward. A sale stored while a
/// pass runs is not in that pass: the machine remembers it and runs one more.
struct OfflineForwarderMachine: Sendable, Equatable {
    enum State: Sendable, Equatable {
        /// No background forward.
        case idle
        /// A pass runs; `failures` passes in a row failed before it, and `salesStoredMeanwhile`
        /// says a sale was stored after it started.
        case forwarding(failures: Int, salesStoredMeanwhile: Bool)
        /// Waiting before the next pass, after `failures` failed passes in a row.
        case pausing(failures: Int)
    }

    /// How a pass ended.
    enum PassOutcome: Sendable, Equatable {
        /// Everything it read was forwarded, or it met a refusal that waiting does not change
        /// (no session, the journal owned elsewhere, an unreadable store).
        case finished
        /// The gateway did not answer: what is left stays stored.
        case gatewayAway
        /// An operation held the terminal, so the pass did not run.
        case terminalBusy
    }

    enum Event: Sendable, Equatable {
        /// A sale was stored, or a login found stored sales (or damaged slots) waiting.
        case salesWaiting
        case passEnded(PassOutcome)
        case pauseEnded
    }

    enum Action: Sendable, Equatable {
        /// Run one pass and deliver ``Event/passEnded(_:)``.
        case runPass
        /// Wait, then deliver ``Event/pauseEnded``.
        case pause(Duration)
    }

    private(set) var state = State.idle

    /// The pause after `failures` failed passes in a row: 2 s, 4 s … at most a minute.
    static func pause(afterFailures failures: Int) -> Duration {
        .seconds(min(1 << min(failures, 6), 60))
    }

    mutating func handle(_ event: Event) -> [Action] {
        switch (state, event) {
        case (.idle, .salesWaiting):
            state = .forwarding(failures: 0, salesStoredMeanwhile: false)
            return [.runPass]
        case (.forwarding(let failures, _), .salesWaiting):
            state = .forwarding(failures: failures, salesStoredMeanwhile: true)
            return []
        case (.forwarding(_, true), .passEnded(.finished)):
            // What was stored meanwhile still waits.
            state = .forwarding(failures: 0, salesStoredMeanwhile: false)
            return [.runPass]
        case (.forwarding(_, false), .passEnded(.finished)):
            state = .idle
            return []
        case (.forwarding(let failures, _), .passEnded(.gatewayAway)),
            (.forwarding(let failures, _), .passEnded(.terminalBusy)):
            // The next pass reads the store afresh, so what was stored meanwhile is in it.
            state = .pausing(failures: failures + 1)
            return [.pause(Self.pause(afterFailures: failures + 1))]
        case (.pausing(let failures), .pauseEnded):
            state = .forwarding(failures: failures, salesStoredMeanwhile: false)
            return [.runPass]
        case (.pausing, .salesWaiting):
            // The pause runs on: the gateway was away a moment ago, and the next pass takes it.
            return []
        case (.idle, .passEnded), (.idle, .pauseEnded), (.pausing, .passEnded), (.forwarding, .pauseEnded):
            // Not one of its own: nothing to do.
            return []
        }
    }
}
