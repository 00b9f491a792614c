import GatewayAPI
import MPOSCore

/// Configuration kept current without the merchant: the Handpoint seed's `financeInit`, the
/// Accept seed's automatic configuration updates and the ECP seed's updates during connect.
extension PaymentTerminal {
    /// Reconciles the reader with the host (the Handpoint seed's `financeInit`: "initializes
    /// the card reader and updates config"): logs the reader in with the gateway's terminal
    /// management, then installs every pending configuration image; firmware waits for
    /// ``downloadAndApplyUpdate(includeFirmware:window:)``. Progress shows as
    /// ``TerminalEvent/readerUpdate(_:)`` events.
    ///
    /// - Returns: ``UpdateResultType/upToDate`` when nothing was pending, ``UpdateResultType/success``
    ///   with what it installed, or why it stopped (``UpdateResultType/notLoggedIn``,
    ///   ``UpdateResultType/terminalNotSelected``, ``UpdateResultType/notInitialized`` when the
    ///   gateway refuses to initialize the reader, ``UpdateResultType/downloadFailed`` when it
    ///   does not answer, and the update's own failures).
    func financeInit() async -> UpdateResult {
        do { _ = try await initializeTerminal() } catch {
            let type: UpdateResultType =
                switch error.code {
                case MPOSError.Code.notLoggedIn: .notLoggedIn
                case MPOSError.Code.readerNotConnected, MPOSError.Code.readerLinkFailed: .terminalNotSelected
                // The gateway answered and would not initialize the reader: it stays uninitialized.
                case MPOSError.Code.gatewayRefused: .notInitialized
                default: .downloadFailed
                }
            return UpdateResult(type: type, applied: [], message: error.message)
        }
        // No stage stream here: the events carry the progress.
        return await runUpdate(includeFirmware: false, window: 16, progress: nil)
    }

    /// Whether connecting a reader (``ReaderTools/connect(secret:reconnect:open:)`` and the
    /// discovered-reader form) also installs its pending configuration images before it
    /// returns, as the ECP seed's connect does ("the reader will not finish the connect process
    /// until required updates succeed") and the Accept seed allows for configuration. Off
    /// until set; needs a logged-in terminal. The outcome shows as
    /// ``TerminalEvent/readerUpdate(_:)`` events; a failed update leaves the reader connected.
    func setAutomaticConfigurationUpdates(_ enabled: Bool) {
        updateSettings.automaticConfiguration = enabled
    }

    /// The configuration half of ``financeInit()`` after a connect, when logged in.
    func applyConfigurationOnConnect() async {
        guard await client.isLoggedIn else { return }
        _ = await financeInit()
    }
}
