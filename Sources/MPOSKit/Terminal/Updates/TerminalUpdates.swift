import MPOSCore

/// Terminal management (the TSM seed), reached as ``PaymentTerminal/updates``: check what is
/// pending for the connected reader and by when, download and apply it, and keep the reader's
/// configuration current by itself.
///
/// ```swift
/// let status = try await terminal.updates.check()
/// if status.hasUpdates {
///     let result = await terminal.updates.downloadAndApply().result()
///     print(result.type)
/// }
/// ```
public struct TerminalUpdates: Sendable {
    let terminal: PaymentTerminal

    /// The least battery a firmware update starts with; charging does not count, as the reader
    /// may be unplugged mid-write.
    public static let firmwareBatteryMinimum = 50

    /// Logs the connected reader in with the gateway's terminal management (the TSM seed's
    /// `initializeTerminal`): registers it at its first call and answers whether updates are
    /// pending and by when. The terminal also does so at login and at connect. Once a deadline
    /// (after the grace period) has passed, card payments are refused with
    /// ``MPOSError/updateRequired`` until ``downloadAndApply(includeFirmware:window:)`` succeeds.
    ///
    /// - Throws: ``MPOSError/notLoggedIn``, ``MPOSError/readerNotConnected``,
    ///   ``MPOSError/gatewayUnreachable``, ``MPOSError/gatewayRefused``.
    public func check() async throws(MPOSError) -> TerminalUpdateStatus {
        try await terminal.initializeTerminal()
    }

    /// Whether the connected reader is initialized with terminal management (the TSM seed's
    /// `isInitialized`): ``check()`` succeeded for it, at connect, at login or when called.
    public var isInitialized: Bool { get async { await terminal.isInitialized } }

    /// The reminder to show the merchant for the connected reader (the TSM seed's pop-up):
    /// nil when its last check found nothing pending, or it was never checked.
    public var reminder: UpdateReminder? { get async { await terminal.updateStatus?.reminder } }

    /// Acts on the merchant's answer to the ``reminder``: ``UpdateReminder/Choice/beginUpdatesNow``
    /// starts ``downloadAndApply(includeFirmware:window:)`` and returns it;
    /// ``UpdateReminder/Choice/remindMeLater`` does nothing (the reminder comes again at the next
    /// check) and returns nil.
    public func respond(to choice: UpdateReminder.Choice) -> UpdateOperation? {
        switch choice {
        case .beginUpdatesNow: downloadAndApply()
        case .remindMeLater: nil
        }
    }

    /// The troubles of the TSM seed's troubleshooting list the terminal has seen on the connected
    /// reader: ``UpdateTrouble/keepsRebooting`` once updates restarted it onto the same image three
    /// times (it does not stay installed), ``UpdateTrouble/decliningBeforeCardPrompt`` once three
    /// card payments in a row ended declined before it asked for a card. Each comes with the
    /// seed's advice (``UpdateTrouble/advice``); the list empties when another reader connects.
    public var troubles: [UpdateTrouble] { get async { await terminal.updateTroubles } }

    /// Downloads and applies every pending image, one at a time (the TSM seed's
    /// `downloadAndApplyUpdate`): each is checked (size, SHA-256, the pinned key's signature)
    /// before a byte reaches the reader, written a window of pieces at a time, verified and
    /// committed by the reader, which then restarts; the terminal reconnects, checks again and
    /// goes on until nothing is pending. Progress comes on ``UpdateOperation/progress``;
    /// ``UpdateOperation/cancel()`` stops between stages.
    ///
    /// Needs a reader connected with ``ReaderTools/connect(secret:reconnect:open:)`` (so
    /// that the terminal can reach it after its restart).
    ///
    /// - Parameters:
    ///   - includeFirmware: false applies configuration images only (the Accept seed: they may
    ///     run automatically; firmware only when the merchant asks).
    ///   - window: pieces in flight while writing (1 waits for each answer).
    public func downloadAndApply(includeFirmware: Bool = true, window: Int = 16) -> UpdateOperation {
        terminal.downloadAndApplyUpdate(includeFirmware: includeFirmware, window: window)
    }

    /// Reconciles the reader with the host (the Handpoint seed's `financeInit`): checks with
    /// terminal management, then installs every pending configuration image; firmware waits
    /// for ``downloadAndApply(includeFirmware:window:)``. Progress shows as
    /// ``TerminalEvent/readerUpdate(_:)`` events.
    public func financeInit() async -> UpdateResult { await terminal.financeInit() }

    /// Whether connecting a reader also installs its pending configuration images before it
    /// returns (``UpdatesOnConnect/configuration``), as the Accept seed allows. Off until set;
    /// needs a logged-in terminal. A failed update leaves the reader connected.
    public func setAutomaticConfigurationUpdates(_ enabled: Bool) async {
        await terminal.setUpdatesOnConnect(enabled ? .configuration : .none)
    }

    /// Sets what connecting a reader installs before it returns (``UpdatesOnConnect/none``
    /// until set). ``UpdatesOnConnect/required`` is the ECP seed's connect: firmware and
    /// configuration published with a deadline are installed, and connect fails when one
    /// does not install.
    public func setUpdatesOnConnect(_ policy: UpdatesOnConnect) async {
        await terminal.setUpdatesOnConnect(policy)
    }

    /// What connecting a reader installs before it returns.
    public var updatesOnConnect: UpdatesOnConnect { get async { await terminal.updateSettings.onConnect } }

    /// Sets the update channel of the terminal's readers (``UpdateChannel/production`` until
    /// set; set it before connecting): a test reader takes only test images.
    public func setChannel(_ channel: UpdateChannel) async { await terminal.setUpdateChannel(channel) }

    /// Pins the Ed25519 public key (32 raw bytes) update images must be signed with; the
    /// sandbox gateway's published key until set.
    ///
    /// - Throws: ``MPOSError/invalidArgument`` for a key that is not a valid Ed25519 key.
    public func pinSigningKey(_ rawKey: [UInt8]) async throws(MPOSError) {
        try await terminal.pinUpdateSigningKey(rawKey)
    }
}
