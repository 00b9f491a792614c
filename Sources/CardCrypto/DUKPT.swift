/// AES DUKPT key derivation, ANSI X9.24-3-2017, for AES-128 BDKs and AES-128 working keys:
/// the host (transaction-receiving) side, plus the counter rules both sides share.
///
/// The chain: BDK → Initial Key (per device) → intermediate derivation keys (one per one-bit of the
/// counter, most significant first) → the transaction's derivation key → working keys per
/// ``DUKPTKeyUsage``. The reader side, which caches intermediate keys instead of walking the
/// chain every time, is ``DUKPTReader``.
public enum DUKPT {
    /// The most one-bits a usable transaction counter may have (X9.24-3-2017, 6.1).
    public static let maximumOneBits = 16

    /// Derives the device's Initial Key from the Base Derivation Key (X9.24-3-2017, 6.3.3
    /// "Derive Initial Key"): AES(BDK)[derivation data with usage `8001` and the whole
    /// Initial Key ID].
    /// - Parameters:
    ///   - bdk: the 16-byte AES-128 Base Derivation Key.
    ///   - initialKeyID: 8 bytes, BDK ID then derivation ID.
    /// - Throws: ``CardCryptoError/Kind/invalidInitialKeyID`` unless the ID is 8 bytes.
    public static func initialKey(bdk: AES128Key, initialKeyID: some Collection<UInt8>)
        throws(CardCryptoError)
        -> AES128Key
    {
        let id = try checkedInitialKeyID(initialKeyID)
        let key = bdk.bytes
        return AES128Key(derived: try DUKPTDerivationData.initialKey(initialKeyID: id).derive(from: key))
    }

    /// Derives the transaction's derivation key from the Initial Key (X9.24-3-2017, 6.5
    /// "Host Security Module Algorithm"): starting from the Initial Key, for each one-bit of the
    /// counter from the most significant down, set that bit in a working counter and derive
    /// AES(key)[derivation data with usage `8000` and the working counter].
    ///
    /// This is the key the standard's supplement lists per KSN; working keys come from it.
    /// - Throws: ``CardCryptoError/Kind/invalidTransactionCounter`` for a counter of zero or
    ///   with more than 16 one-bits.
    public static func transactionKey(initialKey: AES128Key, ksn: KSN) throws(CardCryptoError)
        -> DUKPTTransactionKey
    {
        try checkCounter(ksn.counter)
        var key = initialKey.bytes
        var working: UInt32 = 0
        var mask: UInt32 = 0x8000_0000
        while mask != 0 {
            if ksn.counter & mask != 0 {
                working |= mask
                key = try DUKPTDerivationData.transaction(
                    usage: DUKPTDerivationData.derivationKeyUsage, initialKeyID: ksn.initialKeyID,
                    counter: working
                ).derive(from: key)
            }
            mask >>= 1
        }
        return DUKPTTransactionKey(ksn: ksn, derivationKey: key)
    }

    /// The transaction's derivation key straight from the BDK: ``initialKey(bdk:initialKeyID:)``
    /// with the KSN's Initial Key ID, then ``transactionKey(initialKey:ksn:)``.
    public static func transactionKey(bdk: AES128Key, ksn: KSN) throws(CardCryptoError) -> DUKPTTransactionKey
    {
        try transactionKey(initialKey: initialKey(bdk: bdk, initialKeyID: ksn.initialKeyID), ksn: ksn)
    }

    /// The AES-128 working key for `usage` at `ksn`, host side (X9.24-3-2017, 6.5 then 6.3.2
    /// "Derive Working Key").
    public static func workingKey(bdk: AES128Key, ksn: KSN, usage: DUKPTKeyUsage) throws(CardCryptoError)
        -> AES128Key
    {
        try transactionKey(bdk: bdk, ksn: ksn).workingKey(usage)
    }

    /// The AES-128 working key for `usage` at `ksn`, from the device's Initial Key.
    public static func workingKey(initialKey: AES128Key, ksn: KSN, usage: DUKPTKeyUsage)
        throws(CardCryptoError) -> AES128Key
    {
        try transactionKey(initialKey: initialKey, ksn: ksn).workingKey(usage)
    }

    /// Whether a counter may be used: non-zero with at most 16 one-bits (X9.24-3-2017, 6.1).
    public static func isValidCounter(_ counter: UInt32) -> Bool {
        counter != 0 && counter.nonzeroBitCount <= maximumOneBits
    }

    /// The next usable counter after `counter`, or `nil` when the 32-bit space is exhausted.
    ///
    /// With fewer than 16 one-bits the next counter is `counter + 1`. With exactly 16, every
    /// `counter + 1 …` up to the next carry would have 17 or more, so the standard skips by adding
    /// the lowest set bit (X9.24-3-2017, 6.4 "Update State for next Transaction"): 0x1FFFE is
    /// followed by 0x20000, and 0xFFFF0000 is the last counter.
    public static func counter(after counter: UInt32) -> UInt32? {
        guard counter != 0 else { return 1 }
        if counter.nonzeroBitCount < maximumOneBits {
            return counter == .max ? nil : counter + 1
        }
        let lowest = counter & (~counter &+ 1)
        let (next, overflow) = counter.addingReportingOverflow(lowest)
        return overflow ? nil : next
    }

    static func checkCounter(_ counter: UInt32) throws(CardCryptoError) {
        guard isValidCounter(counter) else {
            throw CardCryptoError(
                .invalidTransactionCounter,
                counter == 0
                    ? "transaction counter 0 is never used"
                    : "transaction counter has \(counter.nonzeroBitCount) one-bits; at most 16 are allowed")
        }
    }

    static func checkedInitialKeyID(_ id: some Collection<UInt8>) throws(CardCryptoError) -> [UInt8] {
        guard id.count == KSN.initialKeyIDByteCount else {
            throw CardCryptoError(.invalidInitialKeyID, "an Initial Key ID is 8 bytes, got \(id.count)")
        }
        return Array(id)
    }
}
