/// AES-CMAC, the block-cipher MAC of NIST SP 800-38B (the same algorithm as RFC 4493), built on
/// the raw AES-128 block function.
///
/// EMV Book 2 Annex A1.2.2 uses it as the MAC for AES application cryptograms and ARPCs, and
/// ANSI X9.24-3 AES DUKPT pairs it with the MAC working keys.
public enum AESCMAC {
    /// The full 16-byte tag T of `message` under `key` (SP 800-38B, 6.2 MAC Generation).
    ///
    /// Steps: subkeys K1, K2 from L = AES(K, 0¹²⁸) (6.1); the last block is XORed with K1 when
    /// complete, otherwise padded with 10…0 and XORed with K2; then CBC-MAC with a zero IV.
    /// - Throws: ``CardCryptoError/Kind/cryptoFailure`` only if the AES primitive fails.
    public static func authenticationCode(
        for message: some Collection<UInt8>, key: AES128Key
    ) throws(CardCryptoError) -> [UInt8] {
        let k = key.bytes
        return try authenticationCode(for: Array(message), keyBytes: k)
    }

    /// The leftmost `length` bytes of the tag (SP 800-38B, 6.2 step 7: T = MSB_Tlen(C_n)).
    /// - Precondition: `length` is 1...16.
    public static func authenticationCode(
        for message: some Collection<UInt8>, key: AES128Key, truncatedTo length: Int
    ) throws(CardCryptoError) -> [UInt8] {
        precondition((1...16).contains(length), "CMAC tag length must be 1...16 bytes")
        return Array(try authenticationCode(for: message, key: key).prefix(length))
    }

    /// The subkeys K1 and K2 (SP 800-38B, 6.1 Subkey Generation).
    static func subkeys(_ key: [UInt8]) throws(CardCryptoError) -> (k1: [UInt8], k2: [UInt8]) {
        let l = try AESBlock.encrypt([UInt8](repeating: 0, count: 16), key: key)
        let k1 = doubled(l)
        return (k1, doubled(k1))
    }

    /// Multiplication by x in GF(2¹²⁸): shift left one bit, and XOR R₁₂₈ = 0x87 into the last
    /// byte when the bit shifted out was 1.
    private static func doubled(_ block: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 16)
        var carry: UInt8 = 0
        for i in stride(from: 15, through: 0, by: -1) {
            out[i] = block[i] << 1 | carry
            carry = block[i] >> 7
        }
        if carry == 1 { out[15] ^= 0x87 }
        return out
    }

    static func authenticationCode(for message: [UInt8], keyBytes key: [UInt8]) throws(CardCryptoError)
        -> [UInt8]
    {
        let (k1, k2) = try subkeys(key)
        let blockCount = max(1, (message.count + 15) / 16)
        let lastIsComplete = !message.isEmpty && message.count % 16 == 0
        var state = [UInt8](repeating: 0, count: 16)
        for index in 0..<(blockCount - 1) {
            let block = message[(index * 16)..<(index * 16 + 16)]
            state = try AESBlock.encrypt(Bytes.xor(state, block), key: key)
        }
        var last = Array(message[((blockCount - 1) * 16)...])
        if lastIsComplete {
            last = Bytes.xor(last, k1)
        } else {
            last.append(0x80)
            last += [UInt8](repeating: 0, count: 16 - last.count)
            last = Bytes.xor(last, k2)
        }
        return try AESBlock.encrypt(Bytes.xor(state, last), key: key)
    }
}
