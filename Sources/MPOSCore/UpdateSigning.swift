/// What an update image's Ed25519 signature covers, shared by the gateway that signs, the SDK
/// that checks before it writes to a reader, and the reader that checks again before it
/// switches slots (see docs/update-signing.md).
public enum UpdateSigning {
    /// The sandbox gateway's published update-signing public key (Ed25519, 32 bytes, hex).
    /// The SDK pins it by default; a production gateway signs with its own key, which an app
    /// pins instead.
    public static let sandboxPublicKeyHex = "22761d446e15be49506e38f3209bf616e2d17c002f980cddfb9d2ac172ed1752"

    /// The signed bytes: a fixed label, then model, kind (`firmware` or `configuration`),
    /// version, size in bytes, the SHA-256 in lower-case hex and the channel (`test` or
    /// `production`), one per line. The deadline is policy, not part of the image, so it is
    /// not signed; everything that decides which bytes a reader runs is.
    public static func message(
        model: String, kind: String, version: String, size: Int64, sha256Hex: String, channel: String
    ) -> [UInt8] {
        Array(
            ["MPOSKit update image v1", model, kind, version, String(size), sha256Hex.lowercased(), channel]
                .joined(separator: "\n").utf8)
    }
}
