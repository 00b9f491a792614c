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
/// This is confidentiality only: CBC has no integrity check. A wrong BDK or altered ciphertext
/// is rejected when the padding does not verify, which catches most but not all of them (a
/// random last block passes with probability about 1/256). Authenticate the message separately,
/// for example with AES-CMAC under the ``DUKPTKeyUsage/macGeneration`` key, where it matters.
public enum CardDataEnvelope {
    /// Starts the reader's next DUKPT transaction and encrypts `plaintext` under its data key.
    /// - Returns: the transaction's KSN and the ciphertext (a multiple of 16 bytes, at least 16).
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
        return out
    }

    /// Decrypts on the host: derives the data key for `ksn` from `bdk`, decrypts and unpads.
    /// - Throws: ``CardCryptoError/Kind/malformedCiphertext`` when the length is not a
    ///   positive multiple of 16; ``CardCryptoError/Kind/decryptionFailed`` when the padding
    ///   does not verify (wrong BDK or KSN, or altered ciphertext); ``CardCryptoError`` for a
    ///   KSN whose counter is unusable.
    public static func open(ciphertext: [UInt8], ksn: KSN, bdk: AES128Key) throws(CardCryptoError) -> [UInt8]
    {
        try open(ciphertext: ciphertext, transactionKey: DUKPT.transactionKey(bdk: bdk, ksn: ksn))
    }

    /// Decrypts with an already derived transaction key (the host may derive it once for the
    /// PIN block and the card data of one transaction).
    public static func open(ciphertext: [UInt8], transactionKey: DUKPTTransactionKey) throws(CardCryptoError)
        -> [UInt8]
    {
        guard !ciphertext.isEmpty, ciphertext.count % AESBlock.size == 0 else {
            throw CardCryptoError(
                .malformedCiphertext,
                "ciphertext must be a positive multiple of 16 bytes, got \(ciphertext.count)")
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
