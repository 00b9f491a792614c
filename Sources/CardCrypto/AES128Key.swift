import EMV

/// A 16-byte AES-128 key: BDKs, DUKPT initial and working keys, issuer master keys, ICC master
/// keys and session keys.
///
/// Its own type, so that callers of CardCrypto need no cryptography library, and so that a key's
/// length is checked once, when it is made. Keys compare in constant time and never print
/// their bytes; ``checkValue`` identifies one in logs instead.
public struct AES128Key: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The key length in bytes.
    public static let byteCount = 16

    let bytes: [UInt8]

    /// A key from 16 bytes.
    /// - Throws: ``CardCryptoError/Kind/invalidKeyLength`` for any other length.
    public init(bytes: some Collection<UInt8>) throws(CardCryptoError) {
        guard bytes.count == AES128Key.byteCount else {
            throw CardCryptoError(.invalidKeyLength, "an AES-128 key is 16 bytes, got \(bytes.count)")
        }
        self.bytes = Array(bytes)
    }

    /// A key from 32 hex digits.
    /// - Throws: ``CardCryptoError/Kind/invalidKeyLength`` for bad hex or the wrong length.
    public init(hex: String) throws(CardCryptoError) {
        let decoded: [UInt8]
        do {
            decoded = try Hex.decode(hex)
        } catch {
            throw CardCryptoError(.invalidKeyLength, "an AES-128 key must be 32 hex digits")
        }
        try self.init(bytes: decoded)
    }

    /// Made from bytes this module produced, which are always 16.
    init(derived bytes: [UInt8]) {
        precondition(bytes.count == AES128Key.byteCount)
        self.bytes = bytes
    }

    /// Calls `body` with the key bytes, for export to an HSM or a test; do not log them.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }

    /// The leftmost 3 bytes of the key's AES-CMAC over 16 `00` bytes (the CMAC-based KCV of
    /// ANSI X9.24-1-2017), safe to show in logs to tell keys apart.
    public var checkValue: [UInt8] {
        let mac = (try? AESCMAC.authenticationCode(for: [UInt8](repeating: 0, count: 16), key: self)) ?? []
        return Array(mac.prefix(3))
    }

    /// Compares in constant time.
    public static func == (lhs: AES128Key, rhs: AES128Key) -> Bool {
        Bytes.constantTimeEqual(lhs.bytes, rhs.bytes)
    }

    /// `AES128Key(KCV <hex>)`; never the key.
    public var description: String { "AES128Key(KCV \(Hex.encode(checkValue)))" }

    /// Same as ``description``.
    public var debugDescription: String { description }
}
