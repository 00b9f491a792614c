import Crypto
import CryptoExtras
import Foundation

/// Adyen's local Terminal API encryption: the message's JSON is encrypted with AES-256-CBC
/// (PKCS#7 padding) under keys derived from a shared passphrase (see `NexoKeyMaterial`), with
/// the IV being the derived IV XOR a random 16-byte nonce, and authenticated by HMAC-SHA256 over
/// the plaintext. The encrypted message keeps its plain `MessageHeader` and carries
/// `NexoBlob` (the ciphertext, base64) and a `SecurityTrailer`.
///
/// Decryption checks the trailer's key identifier, key version and scheme version against the
/// configured keys before it touches the ciphertext.
public struct NexoCrypto: Sendable {
    private struct Entry: Sendable {
        let key: NexoSecurityKey
        let material: NexoKeyMaterial
    }

    private let encryptionKey: Entry
    private let keys: [Entry]

    /// Encrypts with `key` and decrypts messages under `key` or any of `alsoAccepted` (a key
    /// being rotated out). Derives the keys once, here.
    public init(key: NexoSecurityKey, alsoAccepted: [NexoSecurityKey] = []) {
        encryptionKey = Entry(key: key, material: key.deriveKeyMaterial())
        keys = [encryptionKey] + alsoAccepted.map { Entry(key: $0, material: $0.deriveKeyMaterial()) }
    }

    /// Encrypts a request or response: the result has the same header, the ciphertext of the
    /// whole message in its envelope (`{"SaleToPOIRequest": …}`) and its trailer.
    public func encrypt<Message: SaleToPOIMessage>(_ message: Message) -> Message {
        var generator = SystemRandomNumberGenerator()
        return encrypt(message, using: &generator)
    }

    /// Encrypts a request or response with a nonce from `generator`.
    public func encrypt<Message: SaleToPOIMessage>(
        _ message: Message, using generator: inout some RandomNumberGenerator
    ) -> Message {
        let (blob, trailer) = seal(message.encoded, nonce: Self.nonce(&generator))
        return Message.secured(header: message.messageHeader, blob: blob, trailer: trailer)
    }

    /// Decrypts an encrypted request or response and decodes the plaintext.
    ///
    /// - Throws: `NexoError`: `.encryptionExpected` for a plain message, `.unknownKey`,
    ///   `.wrongKeyVersion`, `.unsupportedCryptoVersion`, `.invalidEncoding`, `.badPadding`,
    ///   `.hmacMismatch`, a format error of the plaintext, or `.headerMismatch` when the plain
    ///   header (which the HMAC does not cover) differs from the encrypted one.
    public func decrypt<Message: SaleToPOIMessage>(_ message: Message) throws(NexoError) -> Message {
        guard let blob = message.nexoBlob, let trailer = message.securityTrailer else {
            throw NexoError(
                .encryptionExpected, field: "\(Message.root).NexoBlob",
                message: "the message is not encrypted")
        }
        let decrypted = try Message.decoded(from: open(blob: blob, trailer: trailer, root: Message.root))
        guard decrypted.messageHeader == message.messageHeader else {
            throw NexoError(
                .headerMismatch, condition: .notAllowed, field: "\(Message.root).MessageHeader",
                message: "the plain header differs from the encrypted one")
        }
        return decrypted
    }

    /// Encrypts `plaintext` with the encryption key and `nonce` (16 bytes).
    public func seal(_ plaintext: Data, nonce: [UInt8]) -> (blob: String, trailer: SecurityTrailer) {
        precondition(nonce.count == 16, "a nonce is 16 bytes")
        let material = encryptionKey.material
        let iv = zip(material.iv, nonce).map { $0 ^ $1 }
        // A key or IV of the wrong size is all AES-CBC can refuse; both sizes are fixed here.
        guard
            let ciphertext = try? AES._CBC.encrypt(
                plaintext, using: SymmetricKey(data: material.cipherKey),
                iv: AES._CBC.IV(ivBytes: iv))
        else { preconditionFailure("AES-256-CBC refused a 32-byte key and a 16-byte IV") }
        let mac = HMAC<SHA256>.authenticationCode(for: plaintext, using: SymmetricKey(data: material.hmacKey))
        let trailer = SecurityTrailer(
            adyenCryptoVersion: encryptionKey.key.adyenCryptoVersion,
            keyIdentifier: encryptionKey.key.keyIdentifier,
            keyVersion: encryptionKey.key.keyVersion, nonce: Data(nonce).base64EncodedString(),
            hmac: Data(mac).base64EncodedString())
        return (ciphertext.base64EncodedString(), trailer)
    }

    /// Decrypts and authenticates `blob`, returning the plaintext JSON.
    ///
    /// - Throws: `NexoError` as `decrypt(_:)` does, with fields under `root`.
    public func open(blob: String, trailer: SecurityTrailer, root: String = "SaleToPOIRequest")
        throws(NexoError) -> Data
    {
        let field = "\(root).SecurityTrailer"
        guard trailer.adyenCryptoVersion == 1 else {
            throw NexoError(
                .unsupportedCryptoVersion, condition: .notAllowed, field: "\(field).AdyenCryptoVersion",
                message: "AdyenCryptoVersion \(trailer.adyenCryptoVersion) is not supported")
        }
        let named = keys.filter { $0.key.keyIdentifier == trailer.keyIdentifier }
        guard !named.isEmpty else {
            throw NexoError(
                .unknownKey, condition: .notAllowed, field: "\(field).KeyIdentifier",
                message: "no key named \"\(trailer.keyIdentifier)\" is configured")
        }
        guard let entry = named.first(where: { $0.key.keyVersion == trailer.keyVersion }) else {
            throw NexoError(
                .wrongKeyVersion, condition: .notAllowed, field: "\(field).KeyVersion",
                message: "key \"\(trailer.keyIdentifier)\" version \(trailer.keyVersion) is not configured")
        }
        guard let nonce = Data(base64Encoded: trailer.nonce), nonce.count == 16 else {
            throw NexoError(.invalidEncoding, field: "\(field).Nonce", message: "not 16 bytes of base64")
        }
        guard let mac = Data(base64Encoded: trailer.hmac), mac.count == 32 else {
            throw NexoError(.invalidEncoding, field: "\(field).Hmac", message: "not 32 bytes of base64")
        }
        guard let ciphertext = Data(base64Encoded: blob, options: .ignoreUnknownCharacters),
            !ciphertext.isEmpty,
            ciphertext.count % 16 == 0
        else {
            throw NexoError(
                .invalidEncoding, field: "\(root).NexoBlob", message: "not whole AES blocks in base64")
        }
        let iv = zip(entry.material.iv, nonce).map { $0 ^ $1 }
        // Padding is checked here rather than by the cipher so that every bad padding is the
        // same typed error.
        guard
            let padded = try? AES._CBC.decrypt(
                ciphertext, using: SymmetricKey(data: entry.material.cipherKey),
                iv: AES._CBC.IV(ivBytes: iv), noPadding: true),
            let plaintext = Self.unpad(padded)
        else {
            throw NexoError(
                .badPadding, condition: .notAllowed, field: "\(root).NexoBlob",
                message: "the decrypted message's padding is invalid (wrong key or damaged ciphertext)")
        }
        guard
            HMAC<SHA256>.isValidAuthenticationCode(
                mac, authenticating: plaintext,
                using: SymmetricKey(data: entry.material.hmacKey))
        else {
            throw NexoError(
                .hmacMismatch, condition: .notAllowed, field: "\(field).Hmac",
                message: "the message's HMAC does not match")
        }
        return plaintext
    }

    private static func unpad(_ data: Data) -> Data? {
        guard let last = data.last, (1...16).contains(last), data.count >= Int(last) else { return nil }
        guard data.suffix(Int(last)).allSatisfy({ $0 == last }) else { return nil }
        return data.dropLast(Int(last))
    }

    private static func nonce(_ generator: inout some RandomNumberGenerator) -> [UInt8] {
        (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}
