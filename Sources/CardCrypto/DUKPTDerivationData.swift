/// The 16-byte derivation data block of AES DUKPT (ANSI X9.24-3-2017, 6.3.2 and 6.3.3), which
/// the derivation key encrypts with AES-ECB to produce the derived key (one block suffices for
/// AES-128 output).
///
/// | Bytes | Field                 | Value here                                              |
/// |-------|-----------------------|---------------------------------------------------------|
/// | 0     | Version               | `01`                                                    |
/// | 1     | Key Block Counter     | `01` (the first and, for 128-bit keys, only block)      |
/// | 2–3   | Key Usage Indicator   | `8001` initial key, `8000` intermediate, else the usage |
/// | 4–5   | Algorithm Indicator   | `0002` AES-128                                          |
/// | 6–7   | Length (bits)         | `0080`                                                  |
/// | 8–15  | Initial key: the whole Initial Key ID; otherwise derivation ID (IKID bytes 4–7) then the 4-byte counter |
struct DUKPTDerivationData {
    /// Key Usage Indicator for deriving an Initial Key from the BDK.
    static let initialKeyUsage: UInt16 = 0x8001
    /// Key Usage Indicator for intermediate derivation keys.
    static let derivationKeyUsage: UInt16 = 0x8000
    /// Algorithm Indicator for AES-128.
    static let aes128Algorithm: UInt16 = 0x0002
    /// Length field for a 128-bit key.
    static let aes128Length: UInt16 = 128

    /// The 16 bytes.
    let bytes: [UInt8]

    private init(usage: UInt16, tail: [UInt8]) {
        var out: [UInt8] = [0x01, 0x01]
        out += [UInt8(usage >> 8), UInt8(truncatingIfNeeded: usage)]
        out += [UInt8(Self.aes128Algorithm >> 8), UInt8(truncatingIfNeeded: Self.aes128Algorithm)]
        out += [UInt8(Self.aes128Length >> 8), UInt8(truncatingIfNeeded: Self.aes128Length)]
        out += tail
        bytes = out
    }

    /// Derivation data for the Initial Key (6.3.3 "Derive Initial Key").
    static func initialKey(initialKeyID: [UInt8]) -> DUKPTDerivationData {
        DUKPTDerivationData(usage: initialKeyUsage, tail: initialKeyID)
    }

    /// Derivation data for an intermediate derivation key or a working key at `counter`.
    static func transaction(usage: UInt16, initialKeyID: [UInt8], counter: UInt32) -> DUKPTDerivationData {
        let tail =
            Array(initialKeyID[4..<8]) + [
                UInt8(counter >> 24), UInt8(truncatingIfNeeded: counter >> 16),
                UInt8(truncatingIfNeeded: counter >> 8), UInt8(truncatingIfNeeded: counter),
            ]
        return DUKPTDerivationData(usage: usage, tail: tail)
    }

    /// The derived key: AES-ECB of the block under `key`.
    func derive(from key: [UInt8]) throws(CardCryptoError) -> [UInt8] {
        try AESBlock.encrypt(bytes, key: key)
    }
}
