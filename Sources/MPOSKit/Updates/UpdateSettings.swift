import EMV
import GatewayAPI
import MPOSCore

/// The updates part's state: the channel and key images must match, whether connecting
/// applies configuration by itself, and the connected reader's status.
struct UpdateSettings: Sendable {
    /// The update channel the terminal's readers belong to (test readers take test images).
    var channel: UpdateChannel = .production
    /// What connecting installs before it returns.
    var onConnect = UpdatesOnConnect.none
    /// The Ed25519 key whose signature an update image must carry (raw, 32 bytes).
    var signingKey: [UInt8] = (try? Hex.decode(UpdateSigning.sandboxPublicKeyHex)) ?? []
    /// The connected reader's update status (``TerminalUpdates/check()``), judged at each payment.
    var reader = ReaderUpdateState()
    /// Signs of an update loop or a reader declining before the card prompt (``UpdateTrouble``).
    var troubles = TroubleWatch()
}
