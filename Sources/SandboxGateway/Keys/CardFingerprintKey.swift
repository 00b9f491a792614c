import Crypto
import EMV
import Foundation

/// The secret that keys card fingerprints (``CardFingerprinter``): 32 bytes or more, kept
/// apart from the database that holds the fingerprints and the masked card numbers.
///
/// With the key, the ~100,000 Luhn-valid numbers behind a masked PAN (first six, last four)
/// can be fingerprinted in under a second and compared, so whoever holds the key and the
/// database holds the card numbers. The gateway therefore never stores the key in its
/// database: it reads it from `MPOS_FINGERPRINT_KEY` or a key file (``CardFingerprintKeyFile``)
/// and records only its ``id``.
///
/// Its text form, in the environment and in key files, is hexadecimal (64 digits for 32
/// bytes; `openssl rand -hex 32` makes one). Its description is its id, never its bytes.
///
/// ```swift
/// var configuration = SandboxGatewayConfiguration(databasePath: "/var/lib/mpos/sandbox.sqlite")
/// configuration.fingerprintKey = try CardFingerprintKey(hex: ProcessInfo.processInfo.environment["MPOS_FINGERPRINT_KEY"] ?? "")
/// ```
public struct CardFingerprintKey: Sendable, Hashable, CustomStringConvertible {
    /// The fewest bytes a key may have: 32 (256 bits).
    public static let minimumByteCount = 32
    /// The bytes a new key has.
    public static let byteCount = 32

    /// The key's bytes.
    let bytes: [UInt8]

    /// A key from its bytes.
    ///
    /// - Throws: ``CardFingerprintKeyError`` when there are fewer than 32 bytes.
    public init(bytes: some Collection<UInt8>) throws(CardFingerprintKeyError) {
        guard bytes.count >= Self.minimumByteCount else {
            throw CardFingerprintKeyError(
                "it has \(bytes.count) bytes, at least \(Self.minimumByteCount) are needed")
        }
        self.bytes = Array(bytes)
    }

    /// A key from an older database, whose secret may be as short as 16 bytes.
    init(legacy bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// A key from its hexadecimal text (upper or lower case; surrounding white space, such
    /// as a key file's final newline, is ignored).
    ///
    /// - Throws: ``CardFingerprintKeyError`` when the text is not hexadecimal or gives fewer
    ///   than 32 bytes.
    public init(hex text: String) throws(CardFingerprintKeyError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw CardFingerprintKeyError("it is empty") }
        // Any decoding failure is the error below, which says what the file must hold.
        guard let bytes = try? Hex.decode(trimmed) else {
            throw CardFingerprintKeyError("it is not hexadecimal (64 hex digits for 32 bytes)")
        }
        try self.init(bytes: bytes)
    }

    /// A new key of 32 random bytes.
    public static func random() -> CardFingerprintKey {
        var generator = SystemRandomNumberGenerator()
        return CardFingerprintKey(
            legacy: (0..<byteCount).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// A random key made once per process: what a gateway started without a key uses, so that
    /// restarts in one process (tests, the demo) keep matching cards, and nothing of it outlives
    /// the process.
    static let ofThisProcess = CardFingerprintKey.random()

    /// The key's id: 8 hex digits of an HMAC of a fixed label under the key. It names the key
    /// in the database, in logs and in errors; it is one-way and says nothing of a card.
    public var id: String {
        let mac = HMAC<SHA256>.authenticationCode(
            for: Array("mposkit card-fingerprint key id".utf8), using: SymmetricKey(data: bytes))
        return Hex.encode(Array(mac.prefix(4))).lowercased()
    }

    /// The hexadecimal text of the key, as a key file holds it (with a final newline).
    var fileText: String { Hex.encode(bytes).lowercased() + "\n" }

    /// `card-fingerprint key ` and the ``id``: never the key's bytes.
    public var description: String { "card-fingerprint key \(id)" }
}

/// Why some bytes or text are not a card-fingerprint key.
public struct CardFingerprintKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, as the end of "the key cannot be used: …".
    public let description: String

    init(_ description: String) { self.description = description }
}
