import Crypto
import EMV
import Foundation
import MPOSCore

/// The sandbox's Ed25519 update-signing key: every image the sandbox publishes is signed with
/// it over ``GatewayAPI/UpdateImage/signedMessage``.
///
/// The private key is published on purpose, like the sandbox reader's pairing secret: the
/// sandbox is for development, and anyone may sign images for it. A production gateway signs
/// with a key of its own, kept secret, and the SDK pins the public key it is configured with.
/// See `docs/update-signing.md`.
public enum SandboxUpdateSigning {
    /// The 32-byte Ed25519 private key seed, as 64 lower-case hex digits (SHA-256 of
    /// `MPOSKit sandbox update signing key v1`).
    public static let privateKeySeedHex = "bdb641bd512a1712f7a3346b53fa4dfda90bf492ea6028662c86e38f193c363d"

    /// The matching 32-byte Ed25519 public key, as 64 lower-case hex digits: the key an SDK
    /// pins to accept the sandbox's images.
    public static let publicKeyHex = UpdateSigning.sandboxPublicKeyHex

    /// The signing key made from ``privateKeySeedHex``.
    public static var privateKey: Curve25519.Signing.PrivateKey {
        // The constant is 64 valid hex digits, so this cannot fail.
        try! Curve25519.Signing.PrivateKey(rawRepresentation: Hex.decode(privateKeySeedHex))
    }

    /// The Ed25519 signature of `message` with the sandbox key, as 128 lower-case hex digits.
    ///
    /// - Throws: swift-crypto's error if signing fails.
    public static func signatureHex(of message: [UInt8]) throws -> String {
        Secrets.hex(try privateKey.signature(for: message))
    }
}
