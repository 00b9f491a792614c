/// Card data encrypted by the reader for the host under an AES DUKPT data-encryption key.
///
/// Algorithm: AES-128-CBC (ISO/IEC 10116) with an IV of 16 zero bytes, plaintext padded with
/// ISO/IEC 9797-1 padding method 2 (`80` then `00`s), under the working key for
/// ``DUKPTKeyUsage/dataEncryptionEncrypt`` (X9.24-3-2017 usage `3000`, request direction). The
/// reader and the host derive that same key; the KSN travels beside the ciphertext.
///
/// The zero IV is safe only because every transaction has a fresh key; never seal two messages
/// under one ``DUKPTTransactionKey`` unless they are parts of the same transaction's data.
///
/// Integrity: encrypt-then-MAC. The sealed form is the CBC ciphertext followed by the leftmost
/// 8 bytes of its AES-CMAC under the same transaction's ``DUKPTKeyUsage/macGeneration`` key
/// (usage `2000`). The host checks the MAC, in constant time, before it decrypts anything, so a
/// wrong BDK or KSN and any altered byte are rejected as ``CardCryptoError/Kind/decryptionFailed``.
public enum CardDataEnvelope {
    /// Starts the reader's next DUKPT transaction and encrypts `plaintext` under its data key.
    /// - Returns: the transaction's KSN and the sealed data (16·n ciphertext bytes, n ≥ 1, then
    ///   the 8-byte MAC).
    /// - Throws: ``CardCryptoError/Kind/counterExhausted`` when the reader has no counters left.
    public static func seal(_ plaintext: [UInt8], reader: inout DUKPTReader) throws(CardCryptoError)
        -> (ksn: KSN, ciphertext: [UInt8])
    {
        let (ksn, key) = try reader.nextTransaction()
        return (ksn, try seal(plaintext, transactionKey: key))
    }

    /// Encrypts `plaintext` under an already started transaction's data key, for a reader that
    /// also needs the same transaction's PIN or MAC key.
    public static func seal(_ plaintext: [UInt8], transactionKey: DUKPTTransactionKey) throws(CardCryptoError)
        -> [UInt8]
    {
        let key = try transactionKey.workingKey(.dataEncryptionEncrypt).bytes
        var previous = [UInt8](repeating: 0, count: AESBlock.size)
        var out: [UInt8] = []
        let padded = ISO9797Padding.pad(plaintext)
        out.reserveCapacity(padded.count)
        for start in stride(from: 0, to: padded.count, by: AESBlock.size) {
            previous = try AESBlock.encrypt(
                Bytes.xor(previous, padded[start..<(start + AESBlock.size)]), key: key)
            out += previous
        }
        let macKey = try transactionKey.workingKey(.macGeneration)
        return out + (try AESCMAC.authenticationCode(for: out, key: macKey, truncatedTo: macLength))
    }

    /// Bytes of CMAC appended to the ciphertext.
    public static let macLength = 8

    /// Decrypts on the host: derives the data key for `ksn` from `bdk`, decrypts and unpads.
    /// - Throws: ``CardCryptoError/Kind/malformedCiphertext`` when the length is not a
    ///   positive multiple of 16 plus the MAC; ``CardCryptoError/Kind/decryptionFailed`` when
    ///   the MAC or the padding does not verify (wrong BDK or KSN, or altered data);
    ///   ``CardCryptoError`` for a KSN whose counter is unusable.
    public static func open(ciphertext: [UInt8], ksn: KSN, bdk: AES128Key) throws(CardCryptoError) -> [UInt8]
    {
        try open(ciphertext: ciphertext, transactionKey: DUKPT.transactionKey(bdk: bdk, ksn: ksn))
    }

    /// Decrypts with an already derived transaction key (the host may derive it once for the
    /// PIN block and the card data of one transaction).
    public static func open(ciphertext: [UInt8], transactionKey: DUKPTTransactionKey) throws(CardCryptoError)
        -> [UInt8]
    {
        let bodyCount = ciphertext.count - macLength
        guard bodyCount >= AESBlock.size, bodyCount % AESBlock.size == 0 else {
            throw CardCryptoError(
                .malformedCiphertext,
                "sealed card data must be 16·n + \(macLength) bytes, got \(ciphertext.count)")
        }
        let sealed = ciphertext
        let ciphertext = Array(sealed[..<bodyCount])
        let expected = try AESCMAC.authenticationCode(
            for: ciphertext, key: transactionKey.workingKey(.macGeneration), truncatedTo: macLength)
        guard Bytes.constantTimeEqual(expected, sealed[bodyCount...]) else {
            throw CardCryptoError(.decryptionFailed, "the card data's MAC does not verify")
        }
        let key = try transactionKey.workingKey(.dataEncryptionEncrypt).bytes
        var previous = [UInt8](repeating: 0, count: AESBlock.size)
        var padded: [UInt8] = []
        padded.reserveCapacity(ciphertext.count)
        for start in stride(from: 0, to: ciphertext.count, by: AESBlock.size) {
            let block = Array(ciphertext[start..<(start + AESBlock.size)])
            padded += Bytes.xor(try AESBlock.decrypt(block, key: key), previous)
            previous = block
        }
        guard let plaintext = ISO9797Padding.unpad(padded) else {
            throw CardCryptoError(.decryptionFailed, "the decrypted card data has invalid padding")
        }
        return plaintext
    }
}
