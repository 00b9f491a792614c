import Crypto
import CryptoExtras
import Foundation

/// A shared key for Adyen's local Terminal API encryption, as configured on a terminal:
/// a name, a version and a passphrase the keys are derived from.
public struct NexoSecurityKey: Sendable, Hashable {
    /// The key's name (`KeyIdentifier` in the trailer).
    public let keyIdentifier: String
    /// The key's version (`KeyVersion` in the trailer).
    public let keyVersion: Int
    /// The scheme's version (`AdyenCryptoVersion`); 1 is the only one defined.
    public let adyenCryptoVersion: Int
    /// The passphrase.
    public let passphrase: String

    /// Creates a key.
    public init(keyIdentifier: String, keyVersion: Int, passphrase: String, adyenCryptoVersion: Int = 1) {
        self.keyIdentifier = keyIdentifier
        self.keyVersion = keyVersion
        self.passphrase = passphrase
        self.adyenCryptoVersion = adyenCryptoVersion
    }

    /// The three keys the scheme derives from the passphrase.
    public func deriveKeyMaterial() -> NexoKeyMaterial { NexoKeyMaterial(passphrase: passphrase) }
}

/// The key material Adyen derives from a passphrase: PBKDF2-HMAC-SHA1 over the passphrase's
/// UTF-8 bytes, salt `AdyenNexoV1Salt`, 4000 rounds, 80 bytes, split as the HMAC key (the
/// first 32), the AES-256 key (the next 32) and the base IV (the last 16).
public struct NexoKeyMaterial: Sendable, Hashable {
    /// HMAC-SHA256 key: bytes 0..<32.
    public let hmacKey: [UInt8]
    /// AES-256-CBC key: bytes 32..<64.
    public let cipherKey: [UInt8]
    /// The IV each message's nonce is XORed into: bytes 64..<80.
    public let iv: [UInt8]

    /// The PBKDF2 salt.
    public static let salt = Array("AdyenNexoV1Salt".utf8)
    /// The PBKDF2 round count.
    public static let rounds = 4000

    /// Derives the material from a passphrase.
    public init(passphrase: String) {
        // PBKDF2-SHA1 with these fixed parameters only fails for an output length it cannot
        // produce; 80 bytes is within every implementation's range.
        let derived =
            (try? KDF.Insecure.PBKDF2.deriveKey(
                from: Array(passphrase.utf8), salt: Self.salt, using: .insecureSHA1, outputByteCount: 80,
                unsafeUncheckedRounds: Self.rounds)).map { key in key.withUnsafeBytes { Array($0) } } ?? []
        precondition(derived.count == 80, "PBKDF2 produced \(derived.count) bytes")
        hmacKey = Array(derived[0..<32])
        cipherKey = Array(derived[32..<64])
        iv = Array(derived[64..<80])
    }
}
