import EMV

/// An AES DUKPT Key Serial Number (ANSI X9.24-3-2017, 6.1): 12 bytes, the 8-byte Initial Key ID
/// followed by the 32-bit transaction counter, big-endian.
///
/// The Initial Key ID is itself the 4-byte BDK ID (which Base Derivation Key the host uses) and
/// the 4-byte derivation ID (which device). A KSN is not secret; it travels with every
/// DUKPT-protected message.
///
/// ```swift
/// let ksn = try KSN(hex: "123456789012345600000001")
/// ksn.counter        // 1
/// ksn.bdkID          // [0x12, 0x34, 0x56, 0x78]
/// ```
public struct KSN: Hashable, Sendable, CustomStringConvertible {
    /// Length of an AES DUKPT KSN in bytes.
    public static let byteCount = 12
    /// Length of the Initial Key ID in bytes.
    public static let initialKeyIDByteCount = 8

    /// The 8-byte Initial Key ID: BDK ID then derivation ID.
    public let initialKeyID: [UInt8]
    /// The transaction counter.
    public let counter: UInt32

    /// A KSN from its parts.
    /// - Throws: ``CardCryptoError/Kind/invalidInitialKeyID`` unless `initialKeyID` is 8 bytes.
    public init(initialKeyID: some Collection<UInt8>, counter: UInt32) throws(CardCryptoError) {
        guard initialKeyID.count == KSN.initialKeyIDByteCount else {
            throw CardCryptoError(
                .invalidInitialKeyID, "an Initial Key ID is 8 bytes, got \(initialKeyID.count)")
        }
        self.initialKeyID = Array(initialKeyID)
        self.counter = counter
    }

    /// Decodes the 12-byte wire form.
    /// - Throws: ``CardCryptoError/Kind/invalidKSN`` unless there are exactly 12 bytes.
    public init(bytes: some Collection<UInt8>) throws(CardCryptoError) {
        let all = Array(bytes)
        guard all.count == KSN.byteCount else {
            throw CardCryptoError(.invalidKSN, "a KSN is 12 bytes, got \(all.count)")
        }
        let counter = all[8..<12].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        try self.init(initialKeyID: all[0..<8], counter: counter)
    }

    /// Decodes 24 hex digits.
    /// - Throws: ``CardCryptoError/Kind/invalidKSN`` for bad hex or the wrong length.
    public init(hex: String) throws(CardCryptoError) {
        let bytes: [UInt8]
        do {
            bytes = try Hex.decode(hex)
        } catch {
            throw CardCryptoError(.invalidKSN, "a KSN must be 24 hex digits: \(error)")
        }
        try self.init(bytes: bytes)
    }

    /// The 4-byte BDK ID, the first half of the Initial Key ID.
    public var bdkID: [UInt8] { Array(initialKeyID[0..<4]) }
    /// The 4-byte derivation ID, the second half of the Initial Key ID.
    public var derivationID: [UInt8] { Array(initialKeyID[4..<8]) }

    /// The 12-byte wire form.
    public var bytes: [UInt8] {
        initialKeyID + [
            UInt8(counter >> 24), UInt8(truncatingIfNeeded: counter >> 16),
            UInt8(truncatingIfNeeded: counter >> 8), UInt8(truncatingIfNeeded: counter),
        ]
    }

    /// The 24 upper-case hex digits of ``bytes``.
    public var hex: String { Hex.encode(bytes) }

    /// The hex form; a KSN is not secret.
    public var description: String { hex }
}
