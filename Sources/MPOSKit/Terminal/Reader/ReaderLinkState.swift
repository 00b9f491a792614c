import ReaderLink

/// The reader part's state: the link to the connected card reader, the task that reads its
/// messages, what it last said about itself, its battery watch, and how to reach it again.
struct ReaderLinkState: Sendable {
    /// The paired link, while a reader is connected.
    var connection: ReaderConnection?
    /// Reads the reader's messages for as long as the link lives.
    var pump: Task<Void, Never>?
    /// The connected reader's description, as it last gave it.
    var info: DeviceInfo?
    /// When the reader's battery counts as low, and whether that was already said.
    var battery = BatteryWatch()
    /// How to reach the reader again after a drop (set by the factory form of `connectReader`).
    var reconnectPlan: ReconnectPlan?
    /// The reconnection running, if one does.
    var reconnecting: Task<Void, Never>?
    /// How the reader was reached, kept even without automatic reconnection: an update
    /// reaches the reader again through it after the reader restarts.
    var linkPlan: ReconnectPlan?
    /// Whether a connect called by the app is opening or pairing a link now.
    var connecting = false
    /// The app's terminal catalogue: the models it supports, their names and blacklists.
    var catalogue: TerminalCatalogue?

    /// Connected with a link; connecting while a connect or a reconnection runs (between a
    /// reconnection's attempts too); not connected otherwise.
    var connectionState: ReaderConnectionState {
        if connection != nil { return .connected }
        return connecting || reconnecting != nil ? .connecting : .notConnected
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
