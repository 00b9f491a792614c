import Crypto
import EMV
import MPOSCore
import ReaderLink
import ReaderSimulator

/// Update announcements signed with the sandbox's published update key, as the sandbox gateway
/// signs its catalogue (docs/update-signing.md).
enum SignedImages {
    /// The published seed of the sandbox update key; its public key is `UpdateSigning.sandboxPublicKeyHex`.
    static let sandboxSeedHex = "bdb641bd512a1712f7a3346b53fa4dfda90bf492ea6028662c86e38f193c363d"

    static func begin(
        _ image: [UInt8], slot: UpdateSlot = .firmware, version: String, model: String = "Simulated Reader R1",
        channel: String = "production", seedHex: String = sandboxSeedHex
    ) throws -> UpdateBegin {
        let key = try Curve25519.Signing.PrivateKey(rawRepresentation: try Hex.decode(seedHex))
        let digest = FirmwareSlots.sha256(image)
        let message = UpdateSigning.message(
            model: model, kind: slot == .firmware ? "firmware" : "configuration", version: version,
            size: Int64(image.count), sha256Hex: Hex.encode(digest), channel: channel)
        return UpdateBegin(
            slot: slot, size: UInt32(image.count), sha256: digest, version: version,
            signature: Array(try key.signature(for: message)))
    }
}
