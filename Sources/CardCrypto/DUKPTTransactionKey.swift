/// One transaction's AES DUKPT derivation key, from which its working keys are derived.
///
/// The reader gets one from ``DUKPTReader/nextTransaction()``; the host gets the same one from
/// ``DUKPT/transactionKey(bdk:ksn:)``. Derive every key the transaction needs (PIN, data, MAC)
/// from the same value so that one KSN covers them all.
public struct DUKPTTransactionKey: Sendable, CustomStringConvertible {
    /// The KSN this key belongs to.
    public let ksn: KSN
    /// The derivation key itself, as the X9.24-3-2017 supplement lists it per KSN. Internal:
    /// only working keys leave the module.
    let derivationKey: [UInt8]

    init(ksn: KSN, derivationKey: [UInt8]) {
        self.ksn = ksn
        self.derivationKey = derivationKey
    }

    /// The AES-128 working key for `usage` (X9.24-3-2017, 6.3.2 "Derive Working Key"):
    /// AES(derivation key)[derivation data with the usage, algorithm AES-128, length 128, the
    /// derivation ID and the counter].
    public func workingKey(_ usage: DUKPTKeyUsage) throws(CardCryptoError) -> AES128Key {
        let data = DUKPTDerivationData.transaction(
            usage: usage.rawValue, initialKeyID: ksn.initialKeyID, counter: ksn.counter)
        return AES128Key(derived: try data.derive(from: derivationKey))
    }

    /// `DUKPTTransactionKey(<KSN>)`; the key is never printed.
    public var description: String { "DUKPTTransactionKey(\(ksn))" }
}
