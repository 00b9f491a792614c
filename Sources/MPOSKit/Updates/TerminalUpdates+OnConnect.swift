import GatewayAPI
import MPOSCore

/// Configuration kept current without the merchant: the Handpoint seed's `financeInit`, the
/// Accept seed's automatic configuration updates and the ECP seed's updates during connect.
extension TerminalUpdates {
    /// Reconciles the reader with the host (the Handpoint seed's `financeInit`: "initializes
    /// the card reader and updates config"): logs the reader in with the gateway's terminal
    /// management, then installs every pending configuration image; firmware waits for
    /// ``downloadAndApply(includeFirmware:window:)``. Progress shows as
    /// ``TerminalEvent/readerUpdate(_:)`` events.
    ///
    /// - Returns: ``UpdateResultType/upToDate`` when nothing was pending, ``UpdateResultType/success``
    ///   with what it installed, or why it stopped (``UpdateResultType/notLoggedIn``,
    ///   ``UpdateResultType/terminalNotSelected``, ``UpdateResultType/notInitialized`` when the
    ///   gateway refuses to initialize the reader, ``UpdateResultType/downloadFailed`` when it
    ///   does not answer, and the update's own failures).
    public func financeInit() async -> UpdateResult {
        do { _ = try await check() } catch {
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
        return await runUpdate(.pending(includeFirmware: false), window: 16, progress: nil)
    }

    /// Installs what ``UpdateSettings/onConnect`` asks for after a connect through a factory.
    ///
    /// - Throws: for ``UpdatesOnConnect/required``, ``MPOSError/notLoggedIn`` without a gateway
    ///   session (what is required cannot be known), and ``MPOSError/updateRequired`` when a
    ///   required image did not install; the reader is disconnected first.
    func applyOnConnect(offlineOnly: Bool) async throws(MPOSError) {
        switch settings.onConnect {
        case .none: return
        case .configuration:
            guard await client.isLoggedIn else { return }
            _ = await financeInit()
        case .required:
            // Offline-only, the gateway cannot say what is required; the last known deadlines
            // still judge each payment.
            if offlineOnly { return }
            guard await client.isLoggedIn else {
                await reader.letGo()
                throw MPOSError.notLoggedIn.withMessage(
                    "Connecting installs the reader's required updates: log in first, so the gateway can say what they are.")
            }
            let result = await runUpdate(.required, window: 16, progress: nil)
            guard result.type == .success || result.type == .upToDate else {
                await reader.letGo()
                throw MPOSError.updateRequired.withMessage(
                    "The reader's required updates did not install (\(result.type.rawValue)"
                        + (result.message.map { ": \($0)" } ?? "") + "); the reader was disconnected.")
            }
        }
    }
}
