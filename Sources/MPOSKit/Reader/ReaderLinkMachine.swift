import ReaderLink

/// The reader link's rules, with no I/O: events in, actions out, as ``PaymentEngine`` is for a
/// payment. ``CardReaderLink`` feeds it what happened (an app's connect, a pairing, a drop, a
/// reconnection attempt) and carries out what it returns (listen, close, announce, schedule
/// the next attempt). Generic over the link so that its tests need no reader.
///
/// Its state cannot hold two things at once: a link is connected, or being connected, or
/// being reached again after a drop, or none of these.
struct ReaderLinkMachine<Link: AnyObject & Sendable>: Sendable {
    enum State: Sendable {
        /// No link, and none being reached.
        case notConnected
        /// A connect the app called is opening or pairing a link.
        case connecting
        /// A paired link, its messages read.
        case connected(Link)
        /// The link dropped and the reader is being reached again; `attempt` is the one that
        /// runs or comes next (1-based).
        case reconnecting(attempt: Int)
    }

    /// How the reader was reached, for reaching it again: by a reconnection after a drop (when
    /// `reconnect` is set) and by an update after the reader restarts. Kept until the app
    /// lets the reader go or connects another way.
    struct Route: Sendable {
        let id = UniqueToken()
        /// Automatic reconnection after a drop; nil when off, or once it gave up.
        var reconnect: ReconnectPolicy?
        let secret: SharedSecret
        let open: ReaderTransportFactory
    }

    enum Event: Sendable {
        /// The app lets the reader go (a disconnect, or a new connect replacing this one).
        case letGo
        /// The app's connect starts opening a link.
        case connectStarted
        /// The app's connect paired a link; `route` is the way it was reached (nil for a
        /// transport opened once).
        case paired(Link, route: Route?)
        /// A link paired through the route `routeID` (a reconnection, or an update reaching
        /// the restarted reader).
        case reached(Link, routeID: UniqueToken)
        /// The app's connect failed, or the paired reader was refused (not in the catalogue).
        case connectFailed
        /// The link went away on its own (the listener saw it close).
        case dropped(Link)
        /// The terminal closes the link but keeps the way back (an update restarting the reader).
        case close
        /// A reconnection attempt's delay passed; `busy` when an operation holds the terminal.
        case attemptDue(attempt: Int, busy: Bool)
        /// The attempt did not pair.
        case attemptFailed(attempt: Int)
    }

    enum Action: Sendable, Equatable {
        /// Read the link's messages (until it closes).
        case listen
        /// Stop reading the link's messages.
        case stopListening
        /// Close `link`.
        case close(Link)
        /// Tell the payment in progress, if any, that its reader is gone.
        case tellPaymentLost
        /// Announce ``TerminalEvent/readerConnecting(attempt:)``.
        case announceConnecting(attempt: Int)
        /// Announce that no reader is connected.
        case announceNotConnected
        /// Wait `delay`, then deliver ``Event/attemptDue(attempt:busy:)``.
        case scheduleAttempt(Int, after: Duration)
        /// Open a new link through the route and pair (its result is `paired` or `attemptFailed`).
        case attempt(Int, Route)
        /// Stop the reconnection's timer and any attempt in flight.
        case stopReconnecting

        static func == (lhs: Action, rhs: Action) -> Bool {
            switch (lhs, rhs) {
            case (.listen, .listen), (.stopListening, .stopListening), (.tellPaymentLost, .tellPaymentLost),
                (.announceNotConnected, .announceNotConnected), (.stopReconnecting, .stopReconnecting):
                true
            case (.close(let a), .close(let b)): a === b
            case (.announceConnecting(let a), .announceConnecting(let b)): a == b
            case (.scheduleAttempt(let a, let x), .scheduleAttempt(let b, let y)): a == b && x == y
            case (.attempt(let a, let x), .attempt(let b, let y)): a == b && x.id == y.id
            default: false
            }
        }
    }

    private(set) var state: State = .notConnected
    private(set) var route: Route?

    /// The paired link, if any.
    var link: Link? {
        if case .connected(let link) = state { link } else { nil }
    }

    /// The ECP seed's connection status of this state.
    var connectionState: ReaderConnectionState {
        switch state {
        case .notConnected: .notConnected
        case .connecting, .reconnecting: .connecting
        case .connected: .connected
        }
    }

    mutating func handle(_ event: Event) -> [Action] {
        switch (event, state) {
        case (.letGo, .connected(let link)):
            state = .notConnected
            route = nil
            return [.stopListening, .close(link), .tellPaymentLost, .announceNotConnected]
        case (.letGo, .reconnecting):
            // A reconnection between attempts was `connecting`: it ends as not connected.
            state = .notConnected
            route = nil
            return [.stopReconnecting, .announceNotConnected]
        case (.letGo, _):
            state = .notConnected
            route = nil
            return []

        case (.connectStarted, _):
            state = .connecting
            return [.announceConnecting(attempt: 0)]

        case (.paired(let link, let newRoute), .connecting):
            state = .connected(link)
            route = newRoute
            return [.listen]
        case (.paired(let link, _), _):
            // The app let the reader go, or connected again, while this link paired: not taken.
            return [.close(link)]

        case (.reached(let link, let routeID), .reconnecting), (.reached(let link, let routeID), .notConnected):
            // Only through the route still in force: a let-go or another connect since voids it.
            guard route?.id == routeID else { return [.close(link)] }
            state = .connected(link)
            return [.stopReconnecting, .listen]
        case (.reached(let link, _), _):
            return [.close(link)]

        case (.connectFailed, .connected(let link)):
            state = .notConnected
            return [.stopListening, .close(link), .announceNotConnected]
        case (.connectFailed, .connecting):
            state = .notConnected
            return [.announceNotConnected]
        case (.connectFailed, _):
            return []

        case (.dropped(let gone), .connected(let link)) where gone === link:
            if let policy = route?.reconnect {
                state = .reconnecting(attempt: 1)
                return [
                    .tellPaymentLost, .announceNotConnected,
                    .scheduleAttempt(1, after: policy.delay(beforeAttempt: 0)),
                ]
            }
            state = .notConnected
            return [.tellPaymentLost, .announceNotConnected]
        case (.dropped, _):
            return []

        case (.close, .connected(let link)):
            state = .notConnected
            return [.stopListening, .close(link), .tellPaymentLost, .announceNotConnected]
        case (.close, .reconnecting):
            state = .notConnected
            return [.stopReconnecting]
        case (.close, _):
            return []

        case (.attemptDue(let attempt, let busy), .reconnecting(let current)) where attempt == current:
            guard let route, route.reconnect != nil else {
                state = .notConnected
                return [.announceNotConnected]
            }
            // Never while an operation runs: the attempt counts as made.
            if busy { return handle(.attemptFailed(attempt: attempt)) }
            return [.announceConnecting(attempt: attempt), .attempt(attempt, route)]
        case (.attemptDue, _):
            return []

        case (.attemptFailed(let attempt), .reconnecting(let current)) where attempt == current:
            guard let policy = route?.reconnect, attempt < policy.maximumAttempts else {
                state = .notConnected
                route?.reconnect = nil
                return [.announceNotConnected]
            }
            state = .reconnecting(attempt: attempt + 1)
            return [.scheduleAttempt(attempt + 1, after: policy.delay(beforeAttempt: attempt))]
        case (.attemptFailed, _):
            return []
        }
    }
}

/// Whether the terminal has a card reader: the ECP seed's three connection states
/// (`NOT_CONNECTED`, `CONNECTING`, `CONNECTED`).
public enum ReaderConnectionState: String, Sendable, Hashable, CaseIterable {
    /// No reader, and none being reached.
    case notConnected
    /// A link is being opened and paired: a connect the app called, or a reconnection after
    /// the link dropped, between its attempts too.
    case connecting
    /// A paired link.
    case connected
}
