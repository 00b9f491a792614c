import Crypto
import CryptoExtras

/// The raw AES-128 block function (FIPS 197) and the byte helpers the modes in this module
/// are built from. Internal: callers use the modes, never the bare permutation.
enum AESBlock {
    /// The AES block size in bytes.
    static let size = 16

    /// Encrypts one 16-byte block under a 16-byte key (FIPS 197 Cipher()).
    static func encrypt(_ block: [UInt8], key: [UInt8]) throws(CardCryptoError) -> [UInt8] {
        try permute(block, key: key, inverse: false)
    }

    /// Decrypts one 16-byte block under a 16-byte key (FIPS 197 InvCipher()).
    static func decrypt(_ block: [UInt8], key: [UInt8]) throws(CardCryptoError) -> [UInt8] {
        try permute(block, key: key, inverse: true)
    }

    private static func permute(_ block: [UInt8], key: [UInt8], inverse: Bool) throws(CardCryptoError)
        -> [UInt8]
    {
        guard key.count == 16 else {
            throw CardCryptoError(.invalidKeyLength, "AES-128 needs a 16-byte key, got \(key.count) bytes")
        }
        guard block.count == size else {
            throw CardCryptoError(.cryptoFailure, "AES block must be 16 bytes, got \(block.count)")
        }
        var out = block
        do {
            let symmetric = SymmetricKey(data: key)
            if inverse {
                try AES.inversePermute(&out, key: symmetric)
            } else {
                try AES.permute(&out, key: symmetric)
            }
        } catch {
            throw CardCryptoError(.cryptoFailure, "the AES block function rejected its input")
        }
        return out
    }
}

/// Byte-level helpers shared by the modes.
enum Bytes {
    /// `a ⊕ b` over the length of the shorter input.
    static func xor(_ a: [UInt8], _ b: some Collection<UInt8>) -> [UInt8] {
        zip(a, b).map { $0 ^ $1 }
    }

    /// Compares in time that depends only on the lengths, never on where the bytes differ.
    static func constantTimeEqual(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }
}
