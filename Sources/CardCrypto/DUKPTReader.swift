/// The transaction-originating (reader) side of AES DUKPT, ANSI X9.24-3-2017, 6.4.
///
/// Holds the Initial Key ID, the next transaction counter and a register of intermediate
/// derivation keys, one per counter bit, so that each transaction costs at most 32 AES
/// operations and the Initial Key itself is not kept once the registers are filled, as the
/// standard requires of a device.
///
/// ```swift
/// var reader = try DUKPTReader(bdk: SandboxKeys.bdk, initialKeyID: SandboxKeys.initialKeyID(derivationID: 1))
/// let (ksn, key) = try reader.nextTransaction()
/// let dataKey = try key.workingKey(.dataEncryptionEncrypt)
/// ```
///
/// Register invariant: before a transaction at counter `c` whose lowest one-bit is `p`,
/// register `p` holds the derivation key for `c`, and for every `i > p` with bit `i` of `c`
/// clear, register `i` holds the key for (bits of `c` above `i`) | (1 << `i`), the next counter
/// that will use that register.
public struct DUKPTReader: Sendable, CustomStringConvertible {
    /// The device's 8-byte Initial Key ID.
    public let initialKeyID: [UInt8]
    /// The counter the next transaction will use, or `nil` once exhausted.
    public private(set) var nextCounter: UInt32?
    private var registers: [[UInt8]?]

    /// Loads an Initial Key (X9.24-3-2017, 6.4 "Load Initial Key") ready for counter 1, or
    /// resumes at a stored counter (the registers are rebuilt from the Initial Key).
    /// - Throws: ``CardCryptoError`` for an Initial Key ID that is not 8 bytes, or a `counter` of
    ///   zero or with more than 16 one-bits.
    public init(initialKey: AES128Key, initialKeyID: some Collection<UInt8>, counter: UInt32 = 1)
        throws(CardCryptoError)
    {
        let id = try DUKPT.checkedInitialKeyID(initialKeyID)
        try DUKPT.checkCounter(counter)
        var registers = [[UInt8]?](repeating: nil, count: 32)
        let lowest = counter.trailingZeroBitCount
        for bit in lowest..<32 where bit == lowest || counter & (1 << bit) == 0 {
            let above: UInt32 = bit == 31 ? 0 : counter & ~((UInt32(1) << (bit + 1)) - 1)
            let ksn = try KSN(initialKeyID: id, counter: above | (1 << bit))
            registers[bit] = try DUKPT.transactionKey(initialKey: initialKey, ksn: ksn).derivationKey
        }
        self.initialKeyID = id
        self.registers = registers
        self.nextCounter = counter
    }

    /// Derives the Initial Key from the BDK (``DUKPT/initialKey(bdk:initialKeyID:)``) and loads it.
    /// Meant for simulators and tests: a real device receives its Initial Key, never the BDK.
    public init(bdk: AES128Key, initialKeyID: some Collection<UInt8>, counter: UInt32 = 1)
        throws(CardCryptoError)
    {
        let id = Array(initialKeyID)
        try self.init(
            initialKey: DUKPT.initialKey(bdk: bdk, initialKeyID: id), initialKeyID: id, counter: counter)
    }

    /// Whether every counter has been used; the device then needs a new Initial Key.
    public var isExhausted: Bool { nextCounter == nil }

    /// Starts a transaction: returns its KSN and derivation key, then advances (X9.24-3-2017,
    /// 6.4 "Generate Working Keys" and "Update State for next Transaction").
    ///
    /// After a counter with fewer than 16 one-bits the registers below its lowest bit are
    /// refilled from its key and the counter increments; after one with 16 one-bits nothing is
    /// derived and the counter skips by its lowest bit. The used key is erased either way.
    /// - Throws: ``CardCryptoError/Kind/counterExhausted`` once the last counter (0xFFFF0000)
    ///   has been used.
    public mutating func nextTransaction() throws(CardCryptoError) -> (ksn: KSN, key: DUKPTTransactionKey) {
        guard let counter = nextCounter else {
            throw CardCryptoError(.counterExhausted, "all DUKPT transaction counters have been used")
        }
        let lowest = counter.trailingZeroBitCount
        guard let key = registers[lowest] else {
            throw CardCryptoError(.cryptoFailure, "DUKPT register \(lowest) is empty")
        }
        let ksn = try KSN(initialKeyID: initialKeyID, counter: counter)
        if counter.nonzeroBitCount < DUKPT.maximumOneBits {
            for bit in 0..<lowest {
                registers[bit] = try DUKPTDerivationData.transaction(
                    usage: DUKPTDerivationData.derivationKeyUsage, initialKeyID: initialKeyID,
                    counter: counter | (1 << bit)
                ).derive(from: key)
            }
        }
        registers[lowest] = nil
        nextCounter = DUKPT.counter(after: counter)
        return (ksn, DUKPTTransactionKey(ksn: ksn, derivationKey: key))
    }

    /// `DUKPTReader(next counter …)`; keys are never printed.
    public var description: String {
        if let nextCounter {
            "DUKPTReader(next KSN \((try? KSN(initialKeyID: initialKeyID, counter: nextCounter))?.hex ?? "?"))"
        } else {
            "DUKPTReader(exhausted)"
        }
    }
}
